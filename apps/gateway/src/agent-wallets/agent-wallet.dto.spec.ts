import {
  MAX_ALLOWED_RECIPIENTS,
  MAX_WALLET_AMOUNT,
  WALLET_NAME_MAX_LENGTH,
  WALLET_NAME_MIN_LENGTH,
} from '@xaalis/kernel';
import { refusedFields, validateDto } from '../testing/validate-dto';
import { CreateAgentWalletDto, UpdateAgentWalletDto } from './agent-wallet.dto';

const PHONE = '+221771234567';
const phones = (count: number) =>
  Array.from({ length: count }, (_, i) => `+2217${String(i).padStart(8, '0')}`);

const newWallet = (overrides: Record<string, unknown> = {}) => ({
  name: 'Remboursements',
  provider: 'wave',
  max_payout_amount: 50_000,
  allowed_recipient_phones: [PHONE],
  ...overrides,
});

describe('CreateAgentWalletDto (spec 4.3 and 8)', () => {
  const refused = (body: unknown) => refusedFields(CreateAgentWalletDto, body);

  it('takes a wallet with every required field, the daily cap optional or null', async () => {
    expect(await refused(newWallet())).toEqual([]);
    expect(await refused(newWallet({ max_daily_amount: 200_000 }))).toEqual([]);
    expect(await refused(newWallet({ max_daily_amount: null }))).toEqual([]);
    expect(await refused(newWallet({ provider: 'orange_money' }))).toEqual([]);
  });

  it('names every missing required field', async () => {
    expect(await refused({})).toEqual([
      'name',
      'provider',
      'max_payout_amount',
      'allowed_recipient_phones',
    ]);
  });

  it('counts the name in characters, 2 to 120, an emoji being one', async () => {
    const emoji = '💸';
    expect(await refused(newWallet({ name: 'a'.repeat(WALLET_NAME_MIN_LENGTH - 1) }))).toEqual([
      'name',
    ]);
    expect(await refused(newWallet({ name: emoji.repeat(WALLET_NAME_MIN_LENGTH) }))).toEqual([]);
    expect(await refused(newWallet({ name: emoji.repeat(WALLET_NAME_MAX_LENGTH) }))).toEqual([]);
    expect(await refused(newWallet({ name: 'a'.repeat(WALLET_NAME_MAX_LENGTH + 1) }))).toEqual([
      'name',
    ]);
    expect(await refused(newWallet({ name: 42 }))).toEqual(['name']);
  });

  it('takes only the two real providers, never mock', async () => {
    expect(await refused(newWallet({ provider: 'mock' }))).toEqual(['provider']);
  });

  it.each([
    ['max_payout_amount', 0],
    ['max_payout_amount', MAX_WALLET_AMOUNT + 1],
    ['max_payout_amount', 10.5],
    ['max_payout_amount', '5000'],
    ['max_daily_amount', 0],
    ['max_daily_amount', MAX_WALLET_AMOUNT + 1],
  ])('refuses %s = %p', async (field, value) => {
    expect(await refused(newWallet({ [field]: value }))).toEqual([field]);
  });

  it('takes the amounts at their bounds', async () => {
    const bounds = { max_payout_amount: MAX_WALLET_AMOUNT, max_daily_amount: 1 };
    expect(await refused(newWallet(bounds))).toEqual([]);
  });

  it('takes 1 to 20 recipients, each a Senegalese mobile number', async () => {
    expect(
      await refused(newWallet({ allowed_recipient_phones: phones(MAX_ALLOWED_RECIPIENTS) })),
    ).toEqual([]);
    expect(await refused(newWallet({ allowed_recipient_phones: [] }))).toEqual([
      'allowed_recipient_phones',
    ]);
    expect(
      await refused(newWallet({ allowed_recipient_phones: phones(MAX_ALLOWED_RECIPIENTS + 1) })),
    ).toEqual(['allowed_recipient_phones']);
    expect(await refused(newWallet({ allowed_recipient_phones: [PHONE, '+33612345678'] }))).toEqual(
      ['allowed_recipient_phones'],
    );
    expect(await refused(newWallet({ allowed_recipient_phones: PHONE }))).toEqual([
      'allowed_recipient_phones',
    ]);
  });

  it('refuses a field the spec does not name', async () => {
    expect(await refused(newWallet({ status: 'active' }))).toEqual(['status']);
  });
});

describe('UpdateAgentWalletDto (CONTRACT 5)', () => {
  const refused = (body: unknown) => refusedFields(UpdateAgentWalletDto, body);

  it('takes an empty body, or none, as no change', async () => {
    expect(await validateDto(UpdateAgentWalletDto, {})).toEqual({
      dto: new UpdateAgentWalletDto(),
    });
    expect(await validateDto(UpdateAgentWalletDto, undefined)).toEqual({
      dto: new UpdateAgentWalletDto(),
    });
  });

  it('takes each field with the bounds of creation', async () => {
    expect(
      await refused({
        name: 'Fournisseurs',
        max_payout_amount: 1,
        max_daily_amount: MAX_WALLET_AMOUNT,
        allowed_recipient_phones: [PHONE],
        status: 'disabled',
      }),
    ).toEqual([]);
    expect(
      await refused({
        name: 'a',
        max_payout_amount: 0,
        max_daily_amount: MAX_WALLET_AMOUNT + 1,
        allowed_recipient_phones: [],
        status: 'closed',
      }),
    ).toEqual([
      'name',
      'max_payout_amount',
      'max_daily_amount',
      'allowed_recipient_phones',
      'status',
    ]);
  });

  it('takes null for the daily cap only (removing it), for no other field', async () => {
    expect(await refused({ max_daily_amount: null })).toEqual([]);
    expect(
      await refused({
        name: null,
        max_payout_amount: null,
        allowed_recipient_phones: null,
        status: null,
      }),
    ).toEqual(['name', 'max_payout_amount', 'allowed_recipient_phones', 'status']);
  });

  it('refuses the fields a wallet cannot change', async () => {
    expect(await refused({ provider: 'wave' })).toEqual(['provider']);
  });
});
