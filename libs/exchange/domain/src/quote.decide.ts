import {
  assertNever,
  constantTimeEqual,
  DomainError,
  MAX_OTP_ATTEMPTS,
  QUOTE_LIFETIME_MS,
  TEST_OTP,
  validationError,
  type Decider,
} from '@xaalis/kernel';
import { assertValidTerms, exchangeFee, type ExchangeProvider } from './exchange-bounds';
import type { IssueQuote, QuoteCommand, RedeemQuote } from './quote.commands';
import type { QuoteEvent } from './quote.events';
import { evolve, initialState, type QuoteState } from './quote.state';

/** One answer for every quote that cannot be redeemed: unknown, expired or used alike. */
export const invalidQuote = () =>
  new DomainError('invalid_quote', 'The quote is invalid, expired or already used.');

export const invalidOtp = () => new DomainError('invalid_otp', 'The one-time code is wrong.');

function issueQuote({ data }: IssueQuote, state: QuoteState): QuoteEvent[] {
  // The id is the caller's, fixed by the request: an existing quote is this issue's first run.
  if (state !== null) return [];
  assertValidTerms(data);
  if (typeof data.tokenHash !== 'string' || data.tokenHash.length === 0) {
    throw new TypeError('IssueQuote needs the hash of the quote token');
  }
  const fee = exchangeFee(data.sendAmount, data.feeBps);
  const receiveAmount = data.sendAmount - fee;
  if (receiveAmount < 1) {
    throw validationError([{ field: 'send_amount', issue: 'leaves nothing to receive' }]);
  }
  return [
    {
      type: 'QuoteIssued',
      data: {
        quoteId: data.quoteId,
        tokenHash: data.tokenHash,
        from: data.from as ExchangeProvider,
        to: data.to as ExchangeProvider,
        sendAmount: data.sendAmount,
        fee,
        receiveAmount,
        phone: data.phone,
        issuedAt: data.now.toISOString(),
        expiresAt: new Date(data.now.getTime() + QUOTE_LIFETIME_MS).toISOString(),
      },
    },
  ];
}

/**
 * A wrong code is refused AND recorded: the decision returns `QuoteOtpFailed` (plus `QuoteSpent`
 * on the last attempt allowed), the caller appends it and then answers `redeemRefusal(events)`.
 * The quote is valid for 10 minutes: at `expiresAt` exactly it is expired.
 */
function redeemQuote({ data }: RedeemQuote, state: QuoteState): QuoteEvent[] {
  if (state === null || !constantTimeEqual(data.tokenHash, state.tokenHash)) throw invalidQuote();
  if (state.status === 'redeemed') {
    if (state.exchangeId === data.exchangeId) return [];
    throw invalidQuote();
  }
  if (state.status === 'spent') throw invalidQuote();
  if (data.now.getTime() >= Date.parse(state.expiresAt)) throw invalidQuote();
  const at = data.now.toISOString();
  if (data.otp !== TEST_OTP) {
    const attempts = state.otpAttempts + 1;
    const failed: QuoteEvent = {
      type: 'QuoteOtpFailed',
      data: { quoteId: state.quoteId, attempts, failedAt: at },
    };
    if (attempts < MAX_OTP_ATTEMPTS) return [failed];
    return [
      failed,
      { type: 'QuoteSpent', data: { quoteId: state.quoteId, reason: 'otp_attempts', spentAt: at } },
    ];
  }
  return [
    {
      type: 'QuoteRedeemed',
      data: { quoteId: state.quoteId, exchangeId: data.exchangeId, redeemedAt: at },
    },
  ];
}

/**
 * What the caller answers after appending a redemption's events: `invalid_otp` when they record a
 * wrong code, null when the quote was redeemed (or already was, by this exchange).
 */
export const redeemRefusal = (events: readonly { type: string }[]): DomainError | null =>
  events.some((event) => event.type === 'QuoteOtpFailed') ? invalidOtp() : null;

export function decide(command: QuoteCommand, state: QuoteState): QuoteEvent[] {
  switch (command.type) {
    case 'IssueQuote':
      return issueQuote(command, state);
    case 'RedeemQuote':
      return redeemQuote(command, state);
    default:
      return assertNever(command);
  }
}

export const quoteDecider: Decider<QuoteState, QuoteCommand, QuoteEvent> = {
  initialState,
  evolve,
  decide,
};
