import { hasPrefix, ID_PREFIXES } from '@xaalis/kernel';

/** Crockford base32, as ids are written: an invoice id sorts by its period within its subscription. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const INDEX_DIGITS = 4;
/** 32⁴ periods: a daily subscription for 2,800 years. */
export const MAX_PERIOD_INDEX = 32 ** INDEX_DIGITS - 1;

/**
 * An invoice's id is its subscription's id body followed by its period index (4 base32 digits):
 * `in_<sub body><index>`. So an invoice id names the stream that holds it (a subscription's stream
 * holds its invoices), and the hosted invoice page and `GET /v1/invoices/{id}` read the truth
 * at once, never a read model that may lag the invoice's creation. As unguessable as the
 * subscription's id; whoever holds one invoice's link may find the same subscription's others,
 * which are the same customer's.
 */
export function invoiceIdFor(subscriptionId: string, periodIndex: number): string {
  if (!Number.isInteger(periodIndex) || periodIndex < 0 || periodIndex > MAX_PERIOD_INDEX) {
    throw new RangeError(`period index out of range: ${periodIndex}`);
  }
  let digits = '';
  for (let rest = periodIndex, i = 0; i < INDEX_DIGITS; i++, rest = Math.floor(rest / 32)) {
    digits = ALPHABET[rest % 32] + digits;
  }
  return `${ID_PREFIXES.invoice}_${subscriptionBody(subscriptionId)}${digits}`;
}

/** The subscription an invoice id names, or undefined for what no invoice id can be. */
export function subscriptionIdOfInvoice(invoiceId: string): string | undefined {
  const match = /^in_([0-9A-Z]{20,40})([0-9A-HJKMNP-TV-Z]{4})$/.exec(invoiceId);
  return match ? `${ID_PREFIXES.subscription}_${match[1]}` : undefined;
}

function subscriptionBody(subscriptionId: string): string {
  if (!hasPrefix(subscriptionId, 'subscription')) {
    throw new RangeError(`not a subscription id: ${subscriptionId}`);
  }
  return subscriptionId.slice(ID_PREFIXES.subscription.length + 1);
}
