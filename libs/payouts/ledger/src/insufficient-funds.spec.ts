import { DomainError } from '@xaalis/kernel';
import { insufficientFunds } from './insufficient-funds';

const hold = { ref: 'payout:po_1' as const, amount: 900, fee: 100 };

describe('insufficientFunds', () => {
  it('turns the available-balance CHECK violation into insufficient_funds', () => {
    const error = insufficientFunds(
      { code: '23514', constraint: 'ledger_available_not_negative' },
      hold,
    );

    expect(error).toBeInstanceOf(DomainError);
    expect(error?.toJSON()).toEqual({
      code: 'insufficient_funds',
      message: 'The available balance does not cover this amount.',
      details: { amount: 900, fee: 100, required: 1000 },
    });
  });

  it('leaves other errors alone', () => {
    expect(
      insufficientFunds({ code: '23514', constraint: 'ledger_transactions_mode_check' }, hold),
    ).toBeNull();
    expect(insufficientFunds({ code: '23505' }, hold)).toBeNull();
    expect(insufficientFunds(new Error('boom'), hold)).toBeNull();
    expect(insufficientFunds(null, hold)).toBeNull();
  });
});
