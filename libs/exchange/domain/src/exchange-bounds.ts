import {
  CUSTOMER_PROVIDERS,
  DomainError,
  MAX_SEND_AMOUNT,
  MIN_SEND_AMOUNT,
  PHONE_PATTERN,
  validationError,
  type CustomerProvider,
  type FieldIssue,
} from '@xaalis/kernel';

/** An exchange moves money from one wallet provider to the other, never `mock`. */
export const EXCHANGE_PROVIDERS = CUSTOMER_PROVIDERS;
export type ExchangeProvider = CustomerProvider;

/** Stream names: one quote, one exchange, one phone's Dakar day. */
export const quoteStream = (quoteId: string): string => `exchange-quote-${quoteId}`;
export const exchangeStream = (exchangeId: string): string => `exchange-${exchangeId}`;
export const phoneDayStream = (phone: string, now: Date): string =>
  `exchange-phone-${phone}-${dakarDay(now)}`;

/** The Dakar calendar day (CONTRACT 1): Africa/Dakar is UTC+0 with no daylight saving. */
export const dakarDay = (now: Date): string => now.toISOString().slice(0, 10);

/**
 * Basis points of the send amount (100 = 1%), rounded half up to whole XOF, taken out of what is
 * sent. BigInt, as the payouts' fee: amount × bps must not be rounded by floats. The rate is
 * configuration, so a bad one is a programming error, not a client's.
 */
export function exchangeFee(sendAmount: number, bps: number): number {
  if (!Number.isSafeInteger(sendAmount) || sendAmount < 0) {
    throw new RangeError(`bad amount ${sendAmount}`);
  }
  if (!Number.isInteger(bps) || bps < 0 || bps > 10_000) throw new RangeError(`bad fee ${bps}`);
  return Number((BigInt(sendAmount) * BigInt(bps) + 5_000n) / 10_000n);
}

const isProvider = (value: unknown): value is ExchangeProvider =>
  typeof value === 'string' && (EXCHANGE_PROVIDERS as readonly string[]).includes(value);

export interface ExchangeTerms {
  from: string;
  to: string;
  sendAmount: number;
  phone: string;
}

/** The field issues of a quote's terms, named as the client sent them (snake_case). */
export function exchangeTermsIssues(terms: ExchangeTerms): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const providers = EXCHANGE_PROVIDERS.join(' or ');
  if (!isProvider(terms.from)) issues.push({ field: 'from', issue: `must be ${providers}` });
  if (!isProvider(terms.to)) issues.push({ field: 'to', issue: `must be ${providers}` });
  else if (terms.to === terms.from) issues.push({ field: 'to', issue: 'must differ from `from`' });
  if (!Number.isSafeInteger(terms.sendAmount) || terms.sendAmount < 1) {
    issues.push({ field: 'send_amount', issue: 'must be a positive integer (XOF)' });
  }
  if (typeof terms.phone !== 'string' || !PHONE_PATTERN.test(terms.phone)) {
    issues.push({ field: 'phone', issue: 'must be a Senegalese mobile number (+2217XXXXXXXX)' });
  }
  return issues;
}

/**
 * CONTRACT 8's per-exchange limit. A well-formed amount outside it is `limit_exceeded` (422), as
 * the per-phone daily limit is, not a malformed request.
 */
export function sendAmountLimitExceeded(): DomainError {
  return new DomainError(
    'limit_exceeded',
    `An exchange sends from ${MIN_SEND_AMOUNT.toLocaleString('en-US')} to ${MAX_SEND_AMOUNT.toLocaleString('en-US')} XOF.`,
    { min: MIN_SEND_AMOUNT, max: MAX_SEND_AMOUNT },
  );
}

/** The terms well formed (`validation_error`), then within the per-exchange limit. */
export function assertValidTerms(terms: ExchangeTerms): void {
  const issues = exchangeTermsIssues(terms);
  if (issues.length > 0) throw validationError(issues);
  if (terms.sendAmount < MIN_SEND_AMOUNT || terms.sendAmount > MAX_SEND_AMOUNT) {
    throw sendAmountLimitExceeded();
  }
}
