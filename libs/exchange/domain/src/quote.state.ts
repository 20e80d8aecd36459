import { assertNever } from '@xaalis/kernel';
import type { QuoteEvent, QuoteIssued } from './quote.events';

export type QuoteStatus = 'open' | 'redeemed' | 'spent';

export type Quote = QuoteIssued['data'] & {
  status: QuoteStatus;
  otpAttempts: number;
  exchangeId: string | null;
  /** When it was redeemed: the exchange's Dakar day, however late a retry carries on. */
  redeemedAt: string | null;
};

export type QuoteState = Quote | null;

export const initialState = (): QuoteState => null;

export function evolve(state: QuoteState, event: QuoteEvent): QuoteState {
  if (event.type === 'QuoteIssued') {
    return { ...event.data, status: 'open', otpAttempts: 0, exchangeId: null, redeemedAt: null };
  }
  if (state === null) return state;
  switch (event.type) {
    case 'QuoteOtpFailed':
      return { ...state, otpAttempts: event.data.attempts };
    case 'QuoteSpent':
      return { ...state, status: 'spent' };
    case 'QuoteRedeemed':
      return {
        ...state,
        status: 'redeemed',
        exchangeId: event.data.exchangeId,
        redeemedAt: event.data.redeemedAt,
      };
    default:
      return assertNever(event);
  }
}
