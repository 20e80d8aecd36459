import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Agent, request } from 'node:http';
import { Pool } from 'pg';
import { measure, Measurement } from './measure';

/** The raw floor everything is compared with: one row INSERT + COMMIT per call. */
export async function rawInsert(pool: Pool, table: string, durationMs: number): Promise<Measurement> {
  let n = 0;
  return measure(
    'raw pg INSERT+COMMIT',
    async () => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(`INSERT INTO ${table} (id, body) VALUES ($1, $2)`, [`r${n++}`, '{"a":1}']);
        await client.query('COMMIT');
      } finally {
        client.release();
      }
    },
    { durationMs },
  );
}

export async function rawBatchInsert(pool: Pool, table: string, durationMs: number): Promise<Measurement> {
  let n = 0;
  return measure(
    'raw pg 100-row batch',
    async () => {
      const ids = Array.from({ length: 100 }, () => `b${n++}`);
      await pool.query(`INSERT INTO ${table} (id, body) SELECT unnest($1::text[]), '{"a":1}'`, [ids]);
    },
    { durationMs, unitsPerOp: 100 },
  );
}

/** A plain node:http server answering one primary-key SELECT per request: the API floor. */
export async function rawHttpPg(
  pool: Pool,
  table: string,
  durationMs: number,
  concurrency: number,
): Promise<Measurement> {
  await pool.query(`INSERT INTO ${table} (id, body) VALUES ('acct', '{"name":"demo"}') ON CONFLICT DO NOTHING`);
  const server: Server = createServer(async (_req, res) => {
    const { rows } = await pool.query(`SELECT id, body FROM ${table} WHERE id = $1`, ['acct']);
    const body = JSON.stringify({ object: 'account', id: rows[0].id, ...JSON.parse(rows[0].body) });
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    return await measure('raw node:http + pg', () => httpGet(`http://127.0.0.1:${port}/`), {
      durationMs,
      concurrency,
    });
  } finally {
    server.close();
  }
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

export function httpGet(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(200) : reject(new Error(`HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}
