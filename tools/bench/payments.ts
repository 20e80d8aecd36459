import type { Pool } from 'pg';
import { httpGet, httpLoad, httpPostJson } from './http-load';
import type { Subject } from './measure';

/** What a merchant's checkout sends: amount, reference, description, customer, metadata. */
const CREATE_BODY = {
  amount: 12_500,
  description: 'Order 4711',
  client_reference: 'order_4711',
  customer: { phone: '+221771234567', name: 'Awa Diop' },
  metadata: { cart: '42' },
};

/**
 * `POST /v1/payments` as merchants call it. With `idempotencyKey`, each call sends a fresh key
 * (the usual integration: one key per order), which adds the idempotency record's own writes.
 * Every answer must be a new payment awaiting its method.
 */
export function createPayment(
  baseUrl: string,
  secretKey: string,
  options: { durationMs: number; concurrency: number; idempotencyKey: boolean },
): Subject {
  return httpLoad(
    options.idempotencyKey ? 'POST /v1/payments (idempotency-key)' : 'POST /v1/payments',
    {
      method: 'POST',
      url: `${baseUrl}/v1/payments`,
      headers: { authorization: `Bearer ${secretKey}` },
      body: JSON.stringify(CREATE_BODY),
      freshIdempotencyKey: options.idempotencyKey,
      expectFields: { status: 'requires_payment_method' },
    },
    { durationMs: options.durationMs, concurrency: options.concurrency },
  );
}

/**
 * `GET /v1/payments/{id}` of one existing payment; the first answer is checked, and returned as
 * `object` for the raw baseline to serve the same bytes.
 */
export async function readPayment(
  baseUrl: string,
  secretKey: string,
  options: { durationMs: number; concurrency: number },
): Promise<{ subject: Subject; object: { id: string } & Record<string, unknown> }> {
  const headers = { authorization: `Bearer ${secretKey}` };
  const created = JSON.parse(
    await httpPostJson(`${baseUrl}/v1/payments`, JSON.stringify(CREATE_BODY), headers),
  ) as { id: string };
  const url = `${baseUrl}/v1/payments/${created.id}`;
  const first = JSON.parse(await httpGet(url, headers)) as {
    id: string;
    amount?: number;
  } & Record<string, unknown>;
  if (first.id !== created.id || first.amount !== CREATE_BODY.amount) {
    throw new Error(`GET ${url} answered ${JSON.stringify(first)}`);
  }
  return {
    subject: httpLoad('GET /v1/payments/{id}', { method: 'GET', url, headers }, options),
    object: first,
  };
}

/** The raw INSERT baseline at the same concurrency as the HTTP creates. */
export function rawInsertConcurrent(pool: Pool, durationMs: number, concurrency: number): Subject {
  let n = 0;
  const body = JSON.stringify(CREATE_BODY);
  return {
    name: `raw pg INSERT+COMMIT (${concurrency} clients)`,
    op: () =>
      pool.query({
        name: 'bench_insert_concurrent',
        text: 'INSERT INTO bench_rows (id, body) VALUES ($1, $2)',
        values: [`c${(n++).toString(36)}`, body],
      }),
    options: { durationMs, concurrency },
  };
}
