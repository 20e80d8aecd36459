/**
 * What a public test-mode exchange may be (CONTRACT 8), for the gateway's DTOs, the exchange
 * messages and the deciders alike.
 */

/** `send_amount`, whole XOF per exchange. */
export const MIN_SEND_AMOUNT = 500;
export const MAX_SEND_AMOUNT = 1_000_000;
/** Per phone and Dakar day, over the exchanges neither failed nor expired. */
export const PHONE_DAILY_LIMIT = 2_000_000;
/** A quote's token is valid this long, and used once. */
export const QUOTE_LIFETIME_MS = 10 * 60 * 1000;
/** The fifth wrong code spends the quote. */
export const MAX_OTP_ATTEMPTS = 5;
/** Exchanges are test mode only: the one-time code is always this. */
export const TEST_OTP = '123456';
/** The opaque quote token and the one-time code, as long as a client may send them. */
export const QUOTE_TOKEN_MAX_LENGTH = 200;
export const OTP_MAX_LENGTH = 20;

/** CONTRACT 8. A refunded exchange stays `failed`: the refund is how it ended for the money. */
export const EXCHANGE_STATUSES = [
  'awaiting_payment',
  'processing',
  'completed',
  'failed',
  'expired',
] as const;
export type ExchangeStatus = (typeof EXCHANGE_STATUSES)[number];
