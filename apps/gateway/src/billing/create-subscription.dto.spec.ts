import {
  CLIENT_REFERENCE_MAX_LENGTH,
  MAX_BILLING_CYCLES,
  MAX_CANCEL_AFTER_DAYS,
  MAX_DAYS_UNTIL_DUE,
  MAX_INTERVAL_COUNT,
  MAX_SUBSCRIPTION_AMOUNT,
  MIN_BILLING_CYCLES,
  MIN_CANCEL_AFTER_DAYS,
  MIN_DAYS_UNTIL_DUE,
  MIN_INTERVAL_COUNT,
  MIN_SUBSCRIPTION_AMOUNT,
  PAYMENT_DESCRIPTION_MAX_LENGTH,
  SUBSCRIPTION_CUSTOMER_NAME_MAX_LENGTH,
} from '@xaalis/kernel';
import { refusedFields, validateDto } from '../testing/validate-dto';
import { CreateSubscriptionDto } from './create-subscription.dto';

const newSubscription = (overrides: Record<string, unknown> = {}) => ({
  customer: { phone: '+221771234567', name: 'Awa Diop' },
  amount: 15_000,
  interval: 'month',
  ...overrides,
});
const withCustomer = (customer: Record<string, unknown>) =>
  newSubscription({ customer: { phone: '+221771234567', name: 'Awa Diop', ...customer } });

describe('CreateSubscriptionDto (spec 4.2 and 8)', () => {
  const refused = (body: unknown) => refusedFields(CreateSubscriptionDto, body);

  it('takes a subscription with only the required fields, leaving the defaults to the message', async () => {
    const result = await validateDto(CreateSubscriptionDto, newSubscription());
    expect(result).toEqual({ dto: expect.any(CreateSubscriptionDto) });
    const { dto } = result as { dto: CreateSubscriptionDto };
    expect(dto.interval_count).toBeUndefined();
    expect(dto.days_until_due).toBeUndefined();
    expect(dto.cancel_after_days).toBeUndefined();
  });

  it('takes every optional field', async () => {
    expect(
      await refused(
        newSubscription({
          customer: { phone: '+221781234567', name: 'Awa Diop', email: 'awa@example.sn' },
          currency: 'XOF',
          interval_count: 3,
          billing_cycles: 12,
          days_until_due: 7,
          cancel_after_days: 30,
          description: 'Abonnement fibre',
          client_reference: 'contrat-1042',
          metadata: { contract: '1042' },
        }),
      ),
    ).toEqual([]);
  });

  it('names every missing required field', async () => {
    expect(await refused({})).toEqual(['customer', 'amount', 'interval']);
    expect(await refused(newSubscription({ customer: {} }))).toEqual([
      'customer.phone',
      'customer.name',
    ]);
  });

  it.each(['day', 'week', 'month', 'year'])('takes the interval %p', async (interval) => {
    expect(await refused(newSubscription({ interval }))).toEqual([]);
  });

  it.each(['monthly', 'quarter', '', null])('refuses the interval %p', async (interval) => {
    expect(await refused(newSubscription({ interval }))).toEqual(['interval']);
  });

  describe('customer', () => {
    it.each(['+33612345678', '+221331234567', '771234567', '+2217712345678', 221771234567])(
      'refuses the phone %p',
      async (phone) => {
        expect(await refused(withCustomer({ phone }))).toEqual(['customer.phone']);
      },
    );

    it('counts the name in characters, 1 to 100, an emoji being one', async () => {
      const max = SUBSCRIPTION_CUSTOMER_NAME_MAX_LENGTH;
      expect(await refused(withCustomer({ name: 'A' }))).toEqual([]);
      expect(await refused(withCustomer({ name: '💳'.repeat(max) }))).toEqual([]);
      expect(await refused(withCustomer({ name: '' }))).toEqual(['customer.name']);
      expect(await refused(withCustomer({ name: 'a'.repeat(max + 1) }))).toEqual(['customer.name']);
      expect(await refused(withCustomer({ name: 42 }))).toEqual(['customer.name']);
    });

    it('takes an email address, null or none', async () => {
      expect(await refused(withCustomer({ email: 'awa.diop@example.sn' }))).toEqual([]);
      expect(await refused(withCustomer({ email: null }))).toEqual([]);
    });

    it.each(['awa', 'awa@', '@example.sn', 'awa diop@example.sn', 42, ''])(
      'refuses the email %p',
      async (email) => {
        expect(await refused(withCustomer({ email }))).toEqual(['customer.email']);
      },
    );

    it('refuses a customer that is not an object, and a field it does not name', async () => {
      expect(await refused(newSubscription({ customer: '+221771234567' }))).toEqual(['customer']);
      expect(await refused(withCustomer({ address: 'Dakar' }))).toEqual(['customer.address']);
    });
  });

  it.each([
    ['amount', MIN_SUBSCRIPTION_AMOUNT],
    ['amount', MAX_SUBSCRIPTION_AMOUNT],
    ['interval_count', MIN_INTERVAL_COUNT],
    ['interval_count', MAX_INTERVAL_COUNT],
    ['billing_cycles', MIN_BILLING_CYCLES],
    ['billing_cycles', MAX_BILLING_CYCLES],
    ['billing_cycles', null],
    ['days_until_due', MIN_DAYS_UNTIL_DUE],
    ['days_until_due', MAX_DAYS_UNTIL_DUE],
    ['cancel_after_days', MIN_CANCEL_AFTER_DAYS],
    ['cancel_after_days', MAX_CANCEL_AFTER_DAYS],
  ])('takes %s = %p', async (field, value) => {
    expect(await refused(newSubscription({ [field]: value }))).toEqual([]);
  });

  it.each([
    ['amount', MIN_SUBSCRIPTION_AMOUNT - 1],
    ['amount', MAX_SUBSCRIPTION_AMOUNT + 1],
    ['amount', 1500.5],
    ['amount', '15000'],
    ['amount', null],
    ['interval_count', MIN_INTERVAL_COUNT - 1],
    ['interval_count', MAX_INTERVAL_COUNT + 1],
    ['interval_count', 1.5],
    ['interval_count', null],
    ['billing_cycles', MIN_BILLING_CYCLES - 1],
    ['billing_cycles', MAX_BILLING_CYCLES + 1],
    ['billing_cycles', '12'],
    ['days_until_due', MIN_DAYS_UNTIL_DUE - 1],
    ['days_until_due', MAX_DAYS_UNTIL_DUE + 1],
    ['days_until_due', null],
    ['cancel_after_days', MIN_CANCEL_AFTER_DAYS - 1],
    ['cancel_after_days', MAX_CANCEL_AFTER_DAYS + 1],
    ['cancel_after_days', null],
    ['currency', 'EUR'],
    ['currency', null],
  ])('refuses %s = %p', async (field, value) => {
    expect(await refused(newSubscription({ [field]: value }))).toEqual([field]);
  });

  it('counts description (at most 200) and client_reference (at most 100) in characters', async () => {
    const description = PAYMENT_DESCRIPTION_MAX_LENGTH;
    const reference = CLIENT_REFERENCE_MAX_LENGTH;
    expect(
      await refused(
        newSubscription({
          description: 'é'.repeat(description),
          client_reference: '🧾'.repeat(reference),
        }),
      ),
    ).toEqual([]);
    expect(
      await refused(
        newSubscription({
          description: 'd'.repeat(description + 1),
          client_reference: 'r'.repeat(reference + 1),
        }),
      ),
    ).toEqual(['description', 'client_reference']);
    expect(await refused(newSubscription({ description: null, client_reference: null }))).toEqual(
      [],
    );
    expect(await refused(newSubscription({ description: 7, client_reference: [] }))).toEqual([
      'description',
      'client_reference',
    ]);
  });

  it('takes metadata of strings, refuses anything else', async () => {
    expect(await refused(newSubscription({ metadata: { plan: 'fibre' } }))).toEqual([]);
    expect(await refused(newSubscription({ metadata: { plan: 1 } }))).toEqual(['metadata']);
    expect(await refused(newSubscription({ metadata: { plan: 'x'.repeat(501) } }))).toEqual([
      'metadata',
    ]);
    expect(await refused(newSubscription({ metadata: ['fibre'] }))).toEqual(['metadata']);
  });

  it('refuses a field the spec does not name', async () => {
    expect(await refused(newSubscription({ status: 'active' }))).toEqual(['status']);
  });
});
