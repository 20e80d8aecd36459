import { OTP_MAX_LENGTH, QUOTE_TOKEN_MAX_LENGTH } from '@xaalis/kernel';
import { refusedFields, validateDto } from '../testing/validate-dto';
import { CreateExchangeDto } from './create-exchange.dto';

const newExchange = (overrides: Record<string, unknown> = {}) => ({
  quote: 'exq_01JD8ZP5V6W7X8Y9Z0A1B2C3D4.token',
  otp: '123456',
  ...overrides,
});

describe('CreateExchangeDto (spec 4.5)', () => {
  const refused = (body: unknown) => refusedFields(CreateExchangeDto, body);

  it('takes a quote and its code', async () => {
    expect(await validateDto(CreateExchangeDto, newExchange())).toEqual({
      dto: expect.any(CreateExchangeDto),
    });
  });

  it('names every missing field', async () => {
    expect(await refused({})).toEqual(['quote', 'otp']);
  });

  it('leaves a wrong code to the exchange: any short string passes here', async () => {
    expect(await refused(newExchange({ otp: '000000' }))).toEqual([]);
    expect(await refused(newExchange({ otp: 'abc' }))).toEqual([]);
  });

  it.each([
    ['quote', QUOTE_TOKEN_MAX_LENGTH],
    ['otp', OTP_MAX_LENGTH],
  ])('takes %s of 1 to %p characters', async (field, max) => {
    expect(await refused(newExchange({ [field]: 'q' }))).toEqual([]);
    expect(await refused(newExchange({ [field]: 'q'.repeat(max) }))).toEqual([]);
  });

  it.each([
    ['quote', ''],
    ['quote', 'q'.repeat(QUOTE_TOKEN_MAX_LENGTH + 1)],
    ['quote', 42],
    ['quote', null],
    ['quote', { token: 'x' }],
    ['otp', ''],
    ['otp', '1'.repeat(OTP_MAX_LENGTH + 1)],
    ['otp', 123456],
    ['otp', null],
    ['otp', ['123456']],
  ])('refuses %s = %p', async (field, value) => {
    expect(await refused(newExchange({ [field]: value }))).toEqual([field]);
  });

  it('says how long each may be', async () => {
    expect(await validateDto(CreateExchangeDto, newExchange({ quote: '', otp: '' }))).toEqual({
      issues: [
        { field: 'quote', issue: `must be 1 to ${QUOTE_TOKEN_MAX_LENGTH} characters` },
        { field: 'otp', issue: `must be 1 to ${OTP_MAX_LENGTH} characters` },
      ],
    });
  });

  it('refuses a field spec 4.5 does not name', async () => {
    expect(await refused(newExchange({ phone: '+221771234567' }))).toEqual(['phone']);
  });
});
