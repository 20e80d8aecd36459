import type { Pool } from 'pg';
import { idempotencyKey } from './fixtures';
import type { HttpClient, HttpResult } from './http';
import { rawRequest } from './raw-http';
import { eventually } from './payments';

/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies, checked by each test */
export type ExchangeObject = any;

export const PHONE = '+221771234567';
/** CONTRACT 6's magic number: a payout to it is refused. */
export const REFUSED_PHONE = '+221700000002';

export const quoteBody = (overrides: Record<string, unknown> = {}) => ({
  from: 'wave',
  to: 'orange_money',
  send_amount: 10_000,
  phone: PHONE,
  ...overrides,
});

export const requestQuote = (http: HttpClient, overrides: Record<string, unknown> = {}) =>
  http.post('/v1/public/exchange-quotes', { body: quoteBody(overrides) });

export const requestExchange = (
  http: HttpClient,
  quote: string,
  otp = '123456',
  key: string | null = idempotencyKey(),
): Promise<HttpResult> =>
  http.post('/v1/public/exchanges', {
    body: { quote, otp },
    ...(key === null ? {} : { idempotencyKey: key }),
  });

/** A quote then its exchange, both 201. */
export async function newExchange(
  http: HttpClient,
  overrides: Record<string, unknown> = {},
): Promise<ExchangeObject> {
  const quote = await requestQuote(http, overrides);
  expect(quote.status).toBe(201);
  const exchange = await requestExchange(http, quote.body.quote);
  expect(exchange.status).toBe(201);
  return exchange.body;
}

export const followExchange = (http: HttpClient, exchange: ExchangeObject, cs = exchange.cs) =>
  http.get(`/v1/public/exchanges/${exchange.id}?cs=${encodeURIComponent(cs)}`);

/** The payment id in the exchange's checkout link. */
export const paymentIdOf = (exchange: ExchangeObject): string =>
  new URL(exchange.checkout_url).pathname.split('/').pop() as string;

/** What the checkout page and the sandbox page do: the pay step, then Approve (or Decline). */
export async function payExchange(
  http: HttpClient,
  baseUrl: string,
  exchange: ExchangeObject,
  action: 'approve' | 'decline' = 'approve',
): Promise<void> {
  const paymentId = paymentIdOf(exchange);
  const cs = encodeURIComponent(exchange.cs);
  const paid = await http.post(`/v1/public/payments/${paymentId}/pay?cs=${cs}`, {
    body: { provider: exchange.from, phone: '+221761234567' },
  });
  expect(paid.status).toBe(200);
  const approved = await rawRequest(
    baseUrl,
    'POST',
    `/sandbox/${exchange.from}/${paymentId}/${action}?cs=${cs}`,
    { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' },
  );
  expect(approved.status).toBeLessThan(400);
}

/**
 * Polls the exchange until `status`; `tick` runs between polls (a FixedClock moved on, so that
 * sandbox settling and jobs come due).
 */
export async function exchangeReaching(
  http: HttpClient,
  exchange: ExchangeObject,
  status: string,
  tick: () => void = () => undefined,
  timeoutMs = 20_000,
): Promise<ExchangeObject> {
  const seen = await eventually(
    async () => {
      tick();
      return (await followExchange(http, exchange)).body;
    },
    (body) => body.status === status,
    timeoutMs,
  );
  expect({ id: exchange.id, status: seen.status }).toEqual({ id: exchange.id, status });
  return seen;
}

/** The payouts the service's own account made for this exchange (its client_reference). */
export async function payoutsOf(pool: Pool, exchangeId: string) {
  const { rows } = await pool.query<{ id: string; amount: number; status: string }>(
    `SELECT id, (state->>'amount')::int AS amount, status FROM payouts WHERE client_reference = $1`,
    [exchangeId],
  );
  return rows;
}

/** The refunds of the exchange's payment. */
export async function refundsOf(pool: Pool, paymentId: string) {
  const { rows } = await pool.query<{ id: string; amount: number; status: string }>(
    `SELECT id, amount::int AS amount, status FROM refunds WHERE payment_id = $1`,
    [paymentId],
  );
  return rows;
}
