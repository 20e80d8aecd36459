import { DomainError } from '@xaalis/kernel';
import { CreatePaymentRequest } from '../payments/payments.messages';
import { validateMessage } from './validate-message';

const valid = () => ({
  merchant_id: 'mer_01JD8ZP5V6W7X8Y9Z0A1B2C3D4',
  mode: 'test',
  payment_id: 'pay_01JD8ZP5V6W7X8Y9Z0A1B2C3D4',
  merchant_name: 'Boutique Awa',
  amount: 2_500,
  customer: { phone: '+221771234567' },
});

const issuesOf = (payload: unknown) => {
  try {
    validateMessage(CreatePaymentRequest, payload);
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, details: error.details };
    throw error;
  }
  return undefined;
};

describe('validateMessage', () => {
  it('returns an instance of the contract class, unknown fields stripped', () => {
    const message = validateMessage(CreatePaymentRequest, { ...valid(), added_later: true });
    expect(message).toBeInstanceOf(CreatePaymentRequest);
    expect(message).toEqual(valid());
    expect('added_later' in message).toBe(false);
  });

  it('names each broken rule by its JSON path, nested ones included', () => {
    const outcome = issuesOf({ ...valid(), amount: 0, customer: { phone: '12' } });
    expect(outcome?.code).toBe('validation_error');
    expect(outcome?.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'amount' }),
        expect.objectContaining({ field: 'customer.phone' }),
      ]),
    );
  });

  it('refuses what is not a JSON object', () => {
    for (const payload of [null, [valid()], 'pay', 42]) {
      expect(issuesOf(payload)).toEqual({
        code: 'validation_error',
        details: [{ field: '', issue: 'must be an object' }],
      });
    }
  });
});
