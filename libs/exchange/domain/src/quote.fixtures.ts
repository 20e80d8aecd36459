import type { IssueQuote, RedeemQuote } from './quote.commands';
import type { QuoteEvent, QuoteIssued, QuoteOtpFailed } from './quote.events';

/** Fixture builders for the quote's given/when/then tests. */
export const QUOTE_ID = 'exq_01JD0000000000000000000000';
export const EXCHANGE_ID = 'ex_01JD0000000000000000000000';
export const OTHER_EXCHANGE_ID = 'ex_01JD0000000000000000000001';
export const TOKEN_HASH = 'hash-of-the-quote-token';
export const PHONE = '+221771234567';
export const FEE_BPS = 100;
export const T0 = new Date('2026-11-22T10:00:00.000Z');
/** `ms` milliseconds after T0. */
export const at = (ms: number): Date => new Date(T0.getTime() + ms);
export const MINUTE = 60_000;

export const issueQuote = (overrides: Partial<IssueQuote['data']> = {}): IssueQuote => ({
  type: 'IssueQuote',
  data: {
    quoteId: QUOTE_ID,
    tokenHash: TOKEN_HASH,
    from: 'wave',
    to: 'orange_money',
    sendAmount: 10_000,
    phone: PHONE,
    feeBps: FEE_BPS,
    now: T0,
    ...overrides,
  },
});

export const redeemQuote = (overrides: Partial<RedeemQuote['data']> = {}): RedeemQuote => ({
  type: 'RedeemQuote',
  data: {
    tokenHash: TOKEN_HASH,
    otp: '123456',
    exchangeId: EXCHANGE_ID,
    now: at(MINUTE),
    ...overrides,
  },
});

export const quoteIssued = (overrides: Partial<QuoteIssued['data']> = {}): QuoteIssued => ({
  type: 'QuoteIssued',
  data: {
    quoteId: QUOTE_ID,
    tokenHash: TOKEN_HASH,
    from: 'wave',
    to: 'orange_money',
    sendAmount: 10_000,
    fee: 100,
    receiveAmount: 9_900,
    phone: PHONE,
    issuedAt: T0.toISOString(),
    expiresAt: at(10 * MINUTE).toISOString(),
    ...overrides,
  },
});

export const otpFailed = (attempts: number, now = at(MINUTE)): QuoteOtpFailed => ({
  type: 'QuoteOtpFailed',
  data: { quoteId: QUOTE_ID, attempts, failedAt: now.toISOString() },
});

export const quoteSpent = (now = at(MINUTE)): QuoteEvent => ({
  type: 'QuoteSpent',
  data: { quoteId: QUOTE_ID, reason: 'otp_attempts', spentAt: now.toISOString() },
});

export const quoteRedeemed = (exchangeId = EXCHANGE_ID, now = at(MINUTE)): QuoteEvent => ({
  type: 'QuoteRedeemed',
  data: { quoteId: QUOTE_ID, exchangeId, redeemedAt: now.toISOString() },
});

/** A quote with `n` wrong codes behind it. */
export const quoteWithFailures = (n: number): QuoteEvent[] => [
  quoteIssued(),
  ...Array.from({ length: n }, (_, i) => otpFailed(i + 1)),
];
