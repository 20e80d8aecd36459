import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Pool } from 'pg';
import { httpLoad } from './http-load';
import type { Subject } from './measure';

/**
 * The floors the service is compared with: what `pg` and `node:http` do with nothing of ours in
 * between, on the same database server, pool size and payload.
 */

const TABLE = 'bench_rows';

/** Row ids unique across every subject of the run, as the store's generated ids are. */
let rows = 0;
const nextId = () => `r${(rows++).toString(36)}`;

/** The body every row and every event carries, so raw and store writes move the same bytes. */
export const PAYLOAD = {
  amount: 12_500,
  currency: 'XOF',
  customer: 'cus_01JD5ZQ8R3XW2M4T6Y8A0C2E4G',
  description: 'Order 4711',
};
const PAYLOAD_JSON = JSON.stringify(PAYLOAD);

export async function createBaselineTable(pool: Pool): Promise<void> {
  await pool.query(`CREATE TABLE ${TABLE} (id text PRIMARY KEY, body jsonb NOT NULL)`);
}

/**
 * One row, one transaction. The INSERT runs in autocommit, as the event store's append (for a
 * single event, one INSERT statement) does: one round trip and one WAL flush. An explicit
 * BEGIN / INSERT / COMMIT would add two round trips that the store never pays, and flatter it.
 */
export function rawInsert(pool: Pool, durationMs: number): Subject {
  return {
    name: 'raw pg INSERT+COMMIT',
    op: () =>
      pool.query({
        name: 'bench_insert',
        text: `INSERT INTO ${TABLE} (id, body) VALUES ($1, $2)`,
        values: [nextId(), PAYLOAD_JSON],
      }),
    options: { durationMs },
  };
}

/** 100 rows in one statement and one transaction, arrays bound the way the store binds them. */
export function rawBatchInsert(pool: Pool, durationMs: number): Subject {
  const bodies = Array.from({ length: 100 }, () => PAYLOAD_JSON);
  return {
    name: 'raw pg 100-row batch',
    op: () =>
      pool.query({
        name: 'bench_insert_batch',
        text: `INSERT INTO ${TABLE} (id, body) SELECT * FROM unnest($1::text[], $2::jsonb[])`,
        values: [Array.from({ length: 100 }, nextId), bodies],
      }),
    options: { durationMs, unitsPerOp: 100 },
  };
}

export interface RawHttpServer {
  subject: Subject;
  close(): Promise<void>;
}

/** The row the API floor reads when no other is given: an account-shaped body. */
const ACCOUNT_ROW = {
  id: 'acct',
  body: { object: 'account', id: 'acct', name: 'Bench shop', livemode: false, webhook_url: null },
};

/**
 * A plain node:http server answering one primary-key SELECT per request with the row's body: the
 * API floor. `row` is what the compared endpoint answers (a payment for the payment read), so both
 * move the same bytes; by default an account.
 */
export async function rawHttpPg(
  pool: Pool,
  durationMs: number,
  concurrency: number,
  row: { id: string; body: Record<string, unknown> } = ACCOUNT_ROW,
): Promise<RawHttpServer> {
  await pool.query(
    `INSERT INTO ${TABLE} (id, body) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET body = $2`,
    [row.id, JSON.stringify(row.body)],
  );
  const server: Server = createServer((_request, response) => {
    pool
      .query<{ body: Record<string, unknown> }>({
        name: 'bench_select',
        text: `SELECT body FROM ${TABLE} WHERE id = $1`,
        values: [row.id],
      })
      .then(({ rows }) => {
        const body = JSON.stringify(rows[0].body);
        response.writeHead(200, { 'content-type': 'application/json' }).end(body);
      })
      .catch(() => response.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/`;
  return {
    subject: httpLoad('raw node:http + pg', { method: 'GET', url }, { durationMs, concurrency }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * The write limit of a Node service here (issue 18): a plain node:http server that reads and
 * parses a JSON body and writes it as one row, one INSERT in autocommit (one commit), answering
 * 201 with the row. What `POST /v1/payments` does on top of this is the service's own work.
 */
export async function rawHttpInsert(
  pool: Pool,
  durationMs: number,
  concurrency: number,
  body: Record<string, unknown>,
): Promise<RawHttpServer> {
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const row = { id: nextId(), ...(JSON.parse(Buffer.concat(chunks).toString()) as object) };
      pool
        .query({
          name: 'bench_http_insert',
          text: `INSERT INTO ${TABLE} (id, body) VALUES ($1, $2)`,
          values: [row.id, JSON.stringify(row)],
        })
        .then(() => {
          response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify(row));
        })
        .catch(() => response.writeHead(500).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    subject: httpLoad(
      'raw node:http + pg INSERT+COMMIT',
      { method: 'POST', url: `http://127.0.0.1:${port}/`, body: JSON.stringify(body) },
      { durationMs, concurrency },
    ),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
