import { MAX_SEND_AMOUNT, MIN_SEND_AMOUNT } from '@xaalis/kernel';
import { refusedFields, validateDto } from '../testing/validate-dto';
import { CreateExchangeQuoteDto } from './create-exchange-quote.dto';

const newQuote = (overrides: Record<string, unknown> = {}) => ({
  from: 'wave',
  to: 'orange_money',
  send_amount: 10_000,
  phone: '+221771234567',
  ...overrides,
});

describe('CreateExchangeQuoteDto (CONTRACT 8)', () => {
  const refused = (body: unknown) => refusedFields(CreateExchangeQuoteDto, body);

  it('takes the terms of an exchange, either way round', async () => {
    const result = await validateDto(CreateExchangeQuoteDto, newQuote());
    expect(result).toEqual({ dto: expect.any(CreateExchangeQuoteDto) });
    expect(await refused(newQuote({ from: 'orange_money', to: 'wave' }))).toEqual([]);
  });

  it('names every missing field', async () => {
    expect(await refused({})).toEqual(['from', 'to', 'send_amount', 'phone']);
  });

  it.each(['mock', 'Wave', 'free_money', '', null, 1])(
    'refuses the provider %p',
    async (provider) => {
      expect(await refused(newQuote({ from: provider }))).toEqual(['from']);
      expect(await refused(newQuote({ to: provider }))).toEqual(['to']);
    },
  );

  it.each(['wave', 'orange_money'])('refuses %p to itself, naming `to`', async (provider) => {
    expect(
      await validateDto(CreateExchangeQuoteDto, newQuote({ from: provider, to: provider })),
    ).toEqual({ issues: [{ field: 'to', issue: 'must differ from `from`' }] });
  });

  it('says only what is wrong with a `to` that is no provider, even one equal to `from`', async () => {
    const result = await validateDto(
      CreateExchangeQuoteDto,
      newQuote({ from: 'mock', to: 'mock' }),
    );
    expect(result).toEqual({
      issues: [
        { field: 'from', issue: expect.stringContaining('wave, orange_money') },
        { field: 'to', issue: expect.stringContaining('wave, orange_money') },
      ],
    });
    expect(JSON.stringify(result)).not.toContain('differ');
  });

  it.each([MIN_SEND_AMOUNT, MAX_SEND_AMOUNT, MIN_SEND_AMOUNT - 1, MAX_SEND_AMOUNT + 1, 1])(
    'leaves send_amount %p to the exchange, whose limit it is (422 limit_exceeded)',
    async (send_amount) => {
      expect(await refused(newQuote({ send_amount }))).toEqual([]);
    },
  );

  it.each([0, -500, 1000.5, Number.MAX_SAFE_INTEGER + 1, '10000', null, true, [10_000]])(
    'refuses send_amount %p',
    async (send_amount) => {
      expect(await refused(newQuote({ send_amount }))).toEqual(['send_amount']);
    },
  );

  it('says what is wrong with send_amount', async () => {
    expect(await validateDto(CreateExchangeQuoteDto, newQuote({ send_amount: '10000' }))).toEqual({
      issues: [{ field: 'send_amount', issue: expect.stringContaining('integer') }],
    });
    expect(await validateDto(CreateExchangeQuoteDto, newQuote({ send_amount: 0 }))).toEqual({
      issues: [{ field: 'send_amount', issue: 'must be at least 1' }],
    });
  });

  it.each(['+221781234567', '+221701234567', '+221761234567'])(
    'takes the phone %p',
    async (phone) => {
      expect(await refused(newQuote({ phone }))).toEqual([]);
    },
  );

  it.each([
    '+221331234567',
    '+33612345678',
    '771234567',
    '+2217712345678',
    '+22177123456',
    ' +221771234567',
    221771234567,
    null,
  ])('refuses the phone %p', async (phone) => {
    expect(await refused(newQuote({ phone }))).toEqual(['phone']);
  });

  it('reports every wrong field, each by its name', async () => {
    expect(
      await refused({ from: 'wave', to: 'wave', send_amount: 0.5, phone: '+221331234567' }),
    ).toEqual(['to', 'send_amount', 'phone']);
  });

  it('refuses a field CONTRACT 8 does not name', async () => {
    expect(await validateDto(CreateExchangeQuoteDto, newQuote({ fee: 0 }))).toEqual({
      issues: [{ field: 'fee', issue: 'is not an allowed field' }],
    });
  });
});
