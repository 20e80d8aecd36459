import {
  BILLING_INTERVALS,
  CLIENT_REFERENCE_MAX_LENGTH,
  CURRENCIES,
  DEFAULT_CANCEL_AFTER_DAYS,
  DEFAULT_DAYS_UNTIL_DUE,
  DEFAULT_INTERVAL_COUNT,
  EMAIL_MAX_LENGTH,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  MAX_BILLING_CYCLES,
  MAX_CANCEL_AFTER_DAYS,
  MAX_DAYS_UNTIL_DUE,
  MAX_INTERVAL_COUNT,
  MAX_SUBSCRIPTION_AMOUNT,
  METADATA_KEY_MAX_LENGTH,
  METADATA_MAX_KEYS,
  METADATA_VALUE_MAX_LENGTH,
  MIN_BILLING_CYCLES,
  MIN_CANCEL_AFTER_DAYS,
  MIN_DAYS_UNTIL_DUE,
  MIN_INTERVAL_COUNT,
  MIN_SUBSCRIPTION_AMOUNT,
  PAYMENT_DESCRIPTION_MAX_LENGTH,
  PHONE_PATTERN,
  SUBSCRIPTION_CUSTOMER_NAME_MAX_LENGTH,
  SUBSCRIPTION_CUSTOMER_NAME_MIN_LENGTH,
  validationError,
  type FieldIssue,
} from '@xaalis/kernel';
import type { CreateSubscription } from './subscription.commands';

/**
 * The bounds of spec 4.2 and 8 checked again in the domain: the gateway's DTOs check them first,
 * but a bus message or a replayed command must not create a subscription the edge would refuse.
 * Issues are named by the API's field names, as the edge names them.
 */

/** Characters as the edge counts them: code points, not UTF-16 units. */
const characters = (text: string): number => [...text].length;

/** Deliberately loose: one `@`, a dot in the domain, no spaces. The edge checks the format too. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const isIntegerIn = (value: unknown, min: number, max: number): boolean =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max;

const isTextUpTo = (value: unknown, max: number): boolean =>
  value === null || (typeof value === 'string' && characters(value) <= max);

/** The terms with spec 4.2's defaults in place of what the command left out. */
export function withDefaults(data: CreateSubscription['data']) {
  return {
    currency: data.currency ?? 'XOF',
    intervalCount: data.intervalCount ?? DEFAULT_INTERVAL_COUNT,
    billingCycles: data.billingCycles ?? null,
    daysUntilDue: data.daysUntilDue ?? DEFAULT_DAYS_UNTIL_DUE,
    cancelAfterDays: data.cancelAfterDays ?? DEFAULT_CANCEL_AFTER_DAYS,
  };
}

export function subscriptionIssues(data: CreateSubscription['data']): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const check = (ok: boolean, field: string, issue: string) => {
    if (!ok) issues.push({ field, issue });
  };
  const terms = withDefaults(data);
  const customer = data.customer;
  check(
    typeof customer?.phone === 'string' && PHONE_PATTERN.test(customer.phone),
    'customer.phone',
    `must match ${PHONE_PATTERN.source}`,
  );
  const nameLength = typeof customer?.name === 'string' ? characters(customer.name) : -1;
  check(
    nameLength >= SUBSCRIPTION_CUSTOMER_NAME_MIN_LENGTH &&
      nameLength <= SUBSCRIPTION_CUSTOMER_NAME_MAX_LENGTH,
    'customer.name',
    `must be ${SUBSCRIPTION_CUSTOMER_NAME_MIN_LENGTH} to ${SUBSCRIPTION_CUSTOMER_NAME_MAX_LENGTH} characters`,
  );
  const email = customer?.email ?? null;
  check(
    email === null ||
      (typeof email === 'string' && email.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(email)),
    'customer.email',
    `must be null or an email address of at most ${EMAIL_MAX_LENGTH} characters`,
  );
  check(
    isIntegerIn(data.amount, MIN_SUBSCRIPTION_AMOUNT, MAX_SUBSCRIPTION_AMOUNT),
    'amount',
    `must be an integer from ${MIN_SUBSCRIPTION_AMOUNT} to ${MAX_SUBSCRIPTION_AMOUNT}`,
  );
  check(
    (CURRENCIES as readonly string[]).includes(terms.currency),
    'currency',
    `must be ${CURRENCIES.join(', ')}`,
  );
  check(
    (BILLING_INTERVALS as readonly string[]).includes(data.interval),
    'interval',
    `must be one of ${BILLING_INTERVALS.join(', ')}`,
  );
  const integerBounds: [string, unknown, number, number][] = [
    ['interval_count', terms.intervalCount, MIN_INTERVAL_COUNT, MAX_INTERVAL_COUNT],
    ['days_until_due', terms.daysUntilDue, MIN_DAYS_UNTIL_DUE, MAX_DAYS_UNTIL_DUE],
    ['cancel_after_days', terms.cancelAfterDays, MIN_CANCEL_AFTER_DAYS, MAX_CANCEL_AFTER_DAYS],
  ];
  for (const [field, value, min, max] of integerBounds) {
    check(isIntegerIn(value, min, max), field, `must be an integer from ${min} to ${max}`);
  }
  check(
    terms.billingCycles === null ||
      isIntegerIn(terms.billingCycles, MIN_BILLING_CYCLES, MAX_BILLING_CYCLES),
    'billing_cycles',
    `must be null or an integer from ${MIN_BILLING_CYCLES} to ${MAX_BILLING_CYCLES}`,
  );
  check(
    isTextUpTo(data.description, PAYMENT_DESCRIPTION_MAX_LENGTH),
    'description',
    `must be at most ${PAYMENT_DESCRIPTION_MAX_LENGTH} characters`,
  );
  check(
    isTextUpTo(data.clientReference, CLIENT_REFERENCE_MAX_LENGTH),
    'client_reference',
    `must be at most ${CLIENT_REFERENCE_MAX_LENGTH} characters`,
  );
  const metadata = Object.entries(data.metadata ?? {});
  check(
    metadata.length <= METADATA_MAX_KEYS,
    'metadata',
    `must have at most ${METADATA_MAX_KEYS} keys`,
  );
  for (const [key, value] of metadata) {
    check(
      key.length >= 1 && key.length <= METADATA_KEY_MAX_LENGTH,
      'metadata',
      `keys must be 1 to ${METADATA_KEY_MAX_LENGTH} characters`,
    );
    check(
      typeof value === 'string' && characters(value) <= METADATA_VALUE_MAX_LENGTH,
      `metadata.${key}`,
      `must be a string of at most ${METADATA_VALUE_MAX_LENGTH} characters`,
    );
  }
  return issues;
}

export function idempotencyKeyIssues(key: unknown): FieldIssue[] {
  const length = typeof key === 'string' ? key.length : 0;
  return length >= 1 && length <= IDEMPOTENCY_KEY_MAX_LENGTH
    ? []
    : [
        {
          field: 'idempotency-key',
          issue: `must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`,
        },
      ];
}

export function assertValidSubscription(data: CreateSubscription['data']): void {
  const issues = subscriptionIssues(data);
  if (issues.length > 0) throw validationError(issues);
}
