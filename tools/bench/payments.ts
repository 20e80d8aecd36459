import type { Pool } from 'pg';
import { httpGet, httpLoad, httpPostJson } from './http-load';
import type { Subject } from './measure';

/** What a merchant's checkout sends: amount, reference, description, customer, metadata. */
export const CREATE_BODY = {
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

/** Payments the read line cycles through: reads of many records, as merchants' servers make. */
export const READ_PAYMENTS = 200;

/**
 * `GET /v1/payments/{id}` of `READ_PAYMENTS` existing payments in turn; the first answer is
 * checked, and returned as `object` for the raw baseline to serve the same bytes (its one row:
 * a primary-key SELECT costs the same whichever row it finds).
 */
export async function readPayment(
  baseUrl: string,
  secretKey: string,
  options: { durationMs: number; concurrency: number },
): Promise<{ subject: Subject; object: { id: string } & Record<string, unknown> }> {
  const headers = { authorization: `Bearer ${secretKey}` };
  const urls: string[] = [];
  for (let n = 0; n < READ_PAYMENTS; n += 1) {
    const created = JSON.parse(
      await httpPostJson(`${baseUrl}/v1/payments`, JSON.stringify(CREATE_BODY), headers),
    ) as { id: string };
    urls.push(`${baseUrl}/v1/payments/${created.id}`);
  }
  const first = JSON.parse(await httpGet(urls[0]!, headers)) as {
    id: string;
    amount?: number;
  } & Record<string, unknown>;
  if (first.id !== urls[0]!.split('/').at(-1) || first.amount !== CREATE_BODY.amount) {
    throw new Error(`GET ${urls[0]} answered ${JSON.stringify(first)}`);
  }
  return {
    subject: httpLoad(
      'GET /v1/payments/{id}',
      // Every answer must be a payment (a read of another record would fail the check).
      { method: 'GET', url: urls[0]!, urls, headers, expectFields: { object: 'payment' } },
      options,
    ),
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
