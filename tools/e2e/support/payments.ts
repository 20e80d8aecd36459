import { expect } from '@jest/globals';
import { idempotencyKey } from './fixtures';
import type { HttpClient, HttpResult } from './http';

// Payment objects are checked field by field by the suites; typing each would only restate spec 2.1.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type PaymentObject = any;

export const PAYMENT_LIFETIME_MS = 30 * 60_000;
/** CONTRACT 6: a payment to it is declined, a refund to it refused; every other number succeeds. */
export const MAGIC_DECLINED_PHONE = '+221700000002';

/**
 * CONTRACT 2: status, code and a message; with `fields`, `details` names exactly those fields.
 * The response goes in the failure message, so a wrong answer says what it was.
 */
export function expectError(
  result: HttpResult,
  status: number,
  code: string,
  fields?: string[],
): void {
  const seen = {
    status: result.status,
    code: result.body?.error?.code,
    message: typeof result.body?.error?.message,
    ...(fields
      ? { fields: (result.body?.error?.details ?? []).map((d: { field: string }) => d.field) }
      : {}),
  };
  expect({ ...seen, body: result.text }).toEqual({
    status,
    code,
    message: 'string',
    ...(fields ? { fields } : {}),
    body: result.text,
  });
}

export function createPayment(
  http: HttpClient,
  key: string,
  body: unknown,
  options: { idempotencyKey?: string } = {},
): Promise<HttpResult> {
  return http.post('/v1/payments', { bearer: key, body, ...options });
}

/** A payment that must be created: its object. */
export async function newPayment(
  http: HttpClient,
  key: string,
  body: Record<string, unknown> = { amount: 10_000 },
): Promise<PaymentObject> {
  const created = await createPayment(http, key, body);
  expect({ status: created.status, body: created.body }).toEqual({
    status: 201,
    body: expect.objectContaining({ object: 'payment' }),
  });
  return created.body;
}

export async function getPayment(
  http: HttpClient,
  key: string,
  id: string,
): Promise<PaymentObject> {
  const got = await http.get(`/v1/payments/${id}`, { bearer: key });
  expect(got.status).toBe(200);
  return got.body;
}

/** The test helper `succeed`, `fail` or `expire`, which must answer 200: the updated payment. */
export async function testHelper(
  http: HttpClient,
  key: string,
  id: string,
  action: 'succeed' | 'fail' | 'expire',
): Promise<PaymentObject> {
  const moved = await http.post(`/v1/test_helpers/payments/${id}/${action}`, { bearer: key });
  expect({ status: moved.status, text: moved.text }).toEqual({
    status: 200,
    text: expect.any(String),
  });
  return moved.body;
}

/**
 * A succeeded payment: created (with `provider` when given, else it succeeds as `mock`) and
 * confirmed by the test helper. Its credit reaches the balance later (the bus).
 */
export async function succeededPayment(
  http: HttpClient,
  key: string,
  amount: number,
  extra: Record<string, unknown> = {},
): Promise<PaymentObject> {
  const created = await newPayment(http, key, { amount, ...extra });
  const succeeded = await testHelper(http, key, created.id, 'succeed');
  expect(succeeded.status).toBe('succeeded');
  return succeeded;
}

/** The `cs` of a payment, read from its `checkout_url`. */
export function clientSecretOf(payment: PaymentObject): string {
  const cs = new URL(payment.checkout_url as string).searchParams.get('cs');
  if (!cs) throw new Error(`no cs in ${payment.checkout_url}`);
  return cs;
}

/** Every payment id of the key's merchant and mode, newest first (all pages). */
export async function allPaymentIds(http: HttpClient, key: string): Promise<string[]> {
  const ids: string[] = [];
  for (let after = ''; ;) {
    const page = await http.get(`/v1/payments?limit=100${after && `&starting_after=${after}`}`, {
      bearer: key,
    });
    expect(page.status).toBe(200);
    ids.push(...page.body.data.map((payment: PaymentObject) => payment.id as string));
    if (!page.body.has_more) return ids;
    after = ids[ids.length - 1]!;
  }
}

export interface Balance {
  available: number;
  pending: number;
}

export async function balanceOf(http: HttpClient, key: string): Promise<Balance> {
  const got = await http.get('/v1/balance', { bearer: key });
  expect(got.status).toBe(200);
  return { available: got.body.available, pending: got.body.pending };
}

/** Waits until the balance is `expected` (credits travel over the bus); fails with the last one. */
export async function expectBalance(
  http: HttpClient,
  key: string,
  expected: Balance,
): Promise<void> {
  const last = await eventually(
    () => balanceOf(http, key),
    (balance) => balance.available === expected.available && balance.pending === expected.pending,
  );
  expect(last).toEqual(expected);
}

/**
 * Polls `probe` until `done` holds, then returns that value; after `timeoutMs` returns the last
 * value seen, for the caller's assertion to show. For effects that happen after the response
 * (bus deliveries, the job worker), never to measure how fast they are.
 */
export async function eventually<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await sleep(25);
  }
}

/**
 * Polls `probe` until its value matches `expected` (jest equality, asymmetric matchers too), then
 * asserts it: for read models that follow the event streams a moment later.
 */
export async function expectEventually<T>(
  probe: () => Promise<T>,
  expected: unknown,
): Promise<void> {
  const matches = (value: T) => {
    try {
      expect(value).toEqual(expected);
      return true;
    } catch {
      return false;
    }
  };
  expect(await eventually(probe, matches)).toEqual(expected);
}

/** Waits for the payment to reach `status` (the job worker); returns it, whatever it became. */
export async function eventuallyStatus(
  http: HttpClient,
  key: string,
  id: string,
  status: string,
): Promise<PaymentObject> {
  const payment = await eventually(
    () => getPayment(http, key, id),
    (seen) => seen.status === status,
  );
  expect({ id, status: payment.status }).toEqual({ id, status });
  return payment;
}

/** `POST /v1/refunds` with a fresh idempotency key unless one is given. */
export function createRefund(
  http: HttpClient,
  key: string,
  body: { payment: string; amount?: number },
  options: { idempotencyKey?: string } = {},
): Promise<HttpResult> {
  return http.post('/v1/refunds', {
    bearer: key,
    body,
    idempotencyKey: options.idempotencyKey ?? idempotencyKey(),
  });
}

export const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));
