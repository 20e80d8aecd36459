import type { ExchangeProvider } from './exchange-bounds';

/** Facts of one exchange quote (stream `exchange-quote-<exq_id>`). */
export type QuoteIssued = {
  type: 'QuoteIssued';
  data: {
    quoteId: string;
    tokenHash: string;
    from: ExchangeProvider;
    to: ExchangeProvider;
    sendAmount: number;
    fee: number;
    receiveAmount: number;
    phone: string;
    issuedAt: string;
    expiresAt: string;
  };
};

/** A wrong one-time code; `attempts` counts this one, so a replay cannot count it twice. */
export type QuoteOtpFailed = {
  type: 'QuoteOtpFailed';
  data: { quoteId: string; attempts: number; failedAt: string };
};

/** The quote can no longer be redeemed. */
export type QuoteSpent = {
  type: 'QuoteSpent';
  data: { quoteId: string; reason: 'otp_attempts'; spentAt: string };
};

export type QuoteRedeemed = {
  type: 'QuoteRedeemed';
  data: { quoteId: string; exchangeId: string; redeemedAt: string };
};

export type QuoteEvent = QuoteIssued | QuoteOtpFailed | QuoteSpent | QuoteRedeemed;

export const QUOTE_EVENT_TYPES: readonly QuoteEvent['type'][] = [
  'QuoteIssued',
  'QuoteOtpFailed',
  'QuoteSpent',
  'QuoteRedeemed',
];
