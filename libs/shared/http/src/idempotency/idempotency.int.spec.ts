import { request as httpRequest } from 'node:http';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  type TestDatabase,
  createTestDatabase,
  describeWithPostgres,
} from '../test-support/test-postgres';
import { errorOf } from '../test-support/read-json';
import { HandlerRuns, baseUrlOf, createTestApp } from '../test-support/test-app';
import { IdempotencyStore } from './idempotency.store';
import { fingerprintOf } from './request-fingerprint';

/** CONTRACT 3 over real HTTP and a real Postgres, one throwaway database for the suite. */
describeWithPostgres('idempotency', () => {
  let database: TestDatabase;
  let app: NestFastifyApplication;
  let base: string;
  let runs: HandlerRuns;
  let keyNumber = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await createTestApp({ pool: database.pool, edge: { idempotencyLeaseMs: 60_000 } });
    base = baseUrlOf(app);
    runs = app.get(HandlerRuns);
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  const freshKey = () => `key-${Date.now()}-${(keyNumber += 1)}`;

  function post(
    path: string,
    key: string | undefined,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    return fetch(`${base}${path}`, {
      method: 'POST',
      headers: {
        'x-test-merchant': 'mer_1',
        ...(key === undefined ? {} : { 'idempotency-key': key }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  }

  async function storedRow(key: string) {
    // The response does not wait for its outcome to be stored.
    await app.get(IdempotencyStore).outcomesStored();
    const result = await database.pool.query(
      `SELECT merchant_id, mode, operation, state, status_code, response_body FROM http_idempotency_keys WHERE key = $1`,
      [key],
    );
    return result.rows;
  }

  it('replays the stored status and body byte for byte, with Idempotent-Replayed', async () => {
    const key = freshKey();
    const before = runs.count;
    const first = await post('/test/things', key, { amount: 100, metadata: { order: 'é-42' } });
    const firstText = await first.text();
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    const again = await post('/test/things', key, { amount: 100, metadata: { order: 'é-42' } });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Buffer.from(await again.arrayBuffer()).equals(Buffer.from(firstText))).toBe(true);
    expect(runs.count).toBe(before + 1);

    expect(await storedRow(key)).toEqual([
      {
        merchant_id: 'mer_1',
        mode: 'test',
        operation: 'POST /test/things',
        state: 'done',
        status_code: 201,
        response_body: firstText,
      },
    ]);
  });

  it('takes the same JSON in another key order as the same request', async () => {
    const key = freshKey();
    await post(
      '/test/things',
      key,
      '{"amount": 7, "customer": {"phone": "+221771234567", "name": "Awa"}}',
    );
    const again = await post(
      '/test/things',
      key,
      '{"customer":{"name":"Awa","phone":"+221771234567"},"amount":7}',
    );
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('answers the same key with another body with 409 idempotency_conflict', async () => {
    const key = freshKey();
    const before = runs.count;
    expect((await post('/test/things', key, { amount: 100 })).status).toBe(201);
    const other = await post('/test/things', key, { amount: 101 });
    expect(other.status).toBe(409);
    expect((await errorOf(other)).code).toBe('idempotency_conflict');
    expect(runs.count).toBe(before + 1);
  });

  it('answers the same key on another route with 409 idempotency_conflict', async () => {
    const key = freshKey();
    expect((await post('/test/things', key, { amount: 100 })).status).toBe(201);
    const other = await post('/test/other-things', key, { amount: 100 });
    expect(other.status).toBe(409);
    expect(await errorOf(other)).toEqual({
      code: 'idempotency_conflict',
      message:
        'This idempotency-key was already used for another operation or body. Use a new key for a new request.',
    });
  });

  it('scopes keys by merchant and mode', async () => {
    const key = freshKey();
    const before = runs.count;
    await post('/test/things', key, { amount: 1 });
    const otherMerchant = await post(
      '/test/things',
      key,
      { amount: 1 },
      { 'x-test-merchant': 'mer_2' },
    );
    const otherMode = await post('/test/things', key, { amount: 1 }, { 'x-test-mode': 'live' });
    expect(otherMerchant.headers.get('idempotent-replayed')).toBeNull();
    expect(otherMode.headers.get('idempotent-replayed')).toBeNull();
    expect(runs.count).toBe(before + 3);
  });

  it('answers a second request while the first still runs with 409', async () => {
    const key = freshKey();
    const before = runs.count;
    // The second request goes once the first's handler runs (its key is taken by then), and the
    // first holds it 2 s: a fixed head start failed on a machine that stalls a few hundred ms.
    const first = post('/test/things?delay_ms=2000', key, { amount: 5 });
    while (runs.count === before) await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await post('/test/things?delay_ms=2000', key, { amount: 5 });
    expect(second.status).toBe(409);
    expect((await errorOf(second)).message).toBe(
      'A request with this idempotency key is still being processed. Retry later.',
    );
    expect((await first).status).toBe(201);
  });

  it('runs the handler exactly once for 20 concurrent requests with one key', async () => {
    const key = freshKey();
    const before = runs.count;
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => post('/test/things?delay_ms=50', key, { amount: 250 })),
    );
    const outcomes = await Promise.all(
      responses.map(async (response) => ({
        status: response.status,
        replayed: response.headers.get('idempotent-replayed'),
        text: await response.text(),
      })),
    );
    expect(runs.count).toBe(before + 1);
    const created = outcomes.filter((outcome) => outcome.status === 201);
    const conflicts = outcomes.filter((outcome) => outcome.status === 409);
    expect(created.length + conflicts.length).toBe(20);
    expect(created.filter((outcome) => outcome.replayed === null)).toHaveLength(1);
    expect(new Set(created.map((outcome) => outcome.text)).size).toBe(1);
    for (const conflict of conflicts)
      expect(JSON.parse(conflict.text).error.code).toBe('idempotency_conflict');
  });

  it('requires the header where the handler says so, and bounds its length', async () => {
    const missing = await post('/test/things', undefined, { amount: 1 });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({
      error: {
        code: 'validation_error',
        message: 'The idempotency-key header is required for this operation.',
        details: [{ field: 'idempotency-key', issue: 'is required for this operation' }],
      },
    });
    const tooLong = await post('/test/things', 'k'.repeat(256), { amount: 1 });
    expect(tooLong.status).toBe(400);
    expect((await errorOf(tooLong)).details).toEqual([
      { field: 'idempotency-key', issue: 'must be 1 to 255 characters' },
    ]);
    expect((await post('/test/things', 'k'.repeat(255), { amount: 1 })).status).toBe(201);
    const optional = await post('/test/optional-key', undefined);
    expect(optional.status).toBe(201);
  });

  it('refuses the header sent twice (which Node would join into one "a, b" key)', async () => {
    const { status, body } = await new Promise<{ status: number; body: string }>(
      (resolvePromise, reject) => {
        const sent = httpRequest(
          `${base}/test/things`,
          {
            method: 'POST',
            headers: {
              'x-test-merchant': 'mer_1',
              'content-type': 'application/json',
              'idempotency-key': [freshKey(), freshKey()],
            },
          },
          (response) => {
            let text = '';
            response.on('data', (chunk: Buffer) => (text += chunk.toString()));
            response.on('end', () => resolvePromise({ status: response.statusCode!, body: text }));
          },
        );
        sent.on('error', reject);
        sent.end(JSON.stringify({ amount: 1 }));
      },
    );
    expect(status).toBe(400);
    expect(JSON.parse(body)).toMatchObject({
      error: {
        code: 'validation_error',
        details: [{ field: 'idempotency-key', issue: 'must be sent once' }],
      },
    });
  });

  it('does not store a 400, so the same key can then carry a valid request', async () => {
    const key = freshKey();
    const invalid = await post('/test/things', key, { amount: '100' });
    expect(invalid.status).toBe(400);
    expect(await storedRow(key)).toEqual([]);
    const valid = await post('/test/things', key, { amount: 100 });
    expect(valid.status).toBe(201);
    expect(valid.headers.get('idempotent-replayed')).toBeNull();
  });

  it('does not store a 500, so a retry runs again (with the same ids)', async () => {
    const key = freshKey();
    const before = runs.count;
    expect((await post('/test/boom', key)).status).toBe(500);
    expect((await post('/test/boom', key)).status).toBe(500);
    expect(runs.count).toBe(before + 2);
    expect(await storedRow(key)).toEqual([
      expect.objectContaining({ state: 'running', status_code: null, response_body: null }),
    ]);
  });

  describe('the ids of what a request creates (NewIds)', () => {
    it('are new for each request without a key, and one ULID body per request', async () => {
      type Made = { id: string; same: boolean; refund: string };
      const first = (await (await post('/test/made', undefined)).json()) as Made;
      const second = (await (await post('/test/made', undefined)).json()) as Made;
      expect(first.id).toMatch(/^pay_[0-9A-HJKMNP-TV-Z]{26}$/);
      expect(first.same).toBe(true);
      expect(first.refund).toBe(`re_${first.id.slice(4)}`);
      expect(second.id).not.toBe(first.id);
    });

    it('are fixed by the key: a retry after a 500 (its effect unknown) runs at once with the same ids', async () => {
      const key = freshKey();
      const failed = await post('/test/made?fail=1', key);
      expect(failed.status).toBe(500);
      const [claimed] = await database.pool
        .query('SELECT object_ulid FROM http_idempotency_keys WHERE key = $1', [key])
        .then((result) => result.rows);
      // The same operation and body: the fingerprint covers the query, so the retry says fail=1
      // too; a changed query would be another request (409 below).
      const retried = await post('/test/made?fail=1', key);
      expect(retried.status).toBe(500);
      const other = await post('/test/made', key);
      expect(other.status).toBe(409);
      expect(await storedRow(key)).toEqual([expect.objectContaining({ state: 'running' })]);
      const [after] = await database.pool
        .query('SELECT object_ulid FROM http_idempotency_keys WHERE key = $1', [key])
        .then((result) => result.rows);
      expect(after.object_ulid).toBe(claimed.object_ulid);
    });

    it('are the same for the run that takes over the key of a crashed one', async () => {
      const key = freshKey();
      await database.pool.query(
        `INSERT INTO http_idempotency_keys
           (merchant_id, mode, key, operation, request_hash, state, lock_token, locked_until, object_ulid)
         VALUES ('mer_1', 'test', $1, 'POST /test/made', $2, 'running', gen_random_uuid(),
                 now() - interval '1 second', '01JD00000000000000000000AB')`,
        [key, fingerprintOf({ params: {}, query: {}, body: undefined })],
      );
      const taken = await post('/test/made', key);
      expect(taken.status).toBe(201);
      expect(await taken.json()).toEqual({
        id: 'pay_01JD00000000000000000000AB',
        same: true,
        refund: 're_01JD00000000000000000000AB',
      });
      const replay = await post('/test/made', key);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(((await replay.json()) as { id: string }).id).toBe('pay_01JD00000000000000000000AB');
    });

    it('are given to a row claimed before object ids existed when it is taken over', async () => {
      const key = freshKey();
      await database.pool.query(
        `INSERT INTO http_idempotency_keys
           (merchant_id, mode, key, operation, request_hash, state, lock_token, locked_until)
         VALUES ('mer_1', 'test', $1, 'POST /test/made', $2, 'running', gen_random_uuid(),
                 now() - interval '1 second')`,
        [key, fingerprintOf({ params: {}, query: {}, body: undefined })],
      );
      const taken = await post('/test/made', key);
      expect(taken.status).toBe(201);
      const { id } = (await taken.json()) as { id: string };
      const [row] = await database.pool
        .query('SELECT object_ulid FROM http_idempotency_keys WHERE key = $1', [key])
        .then((result) => result.rows);
      expect(id).toBe(`pay_${row.object_ulid}`);
    });
  });

  it('stores and replays a final failure such as a 404', async () => {
    const key = freshKey();
    const before = runs.count;
    const first = await post('/test/fail/not_found', key);
    const firstText = await first.text();
    const again = await post('/test/fail/not_found', key);
    expect(again.status).toBe(404);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.text()).toBe(firstText);
    expect(runs.count).toBe(before + 1);
  });

  it('replays an empty 204', async () => {
    const key = freshKey();
    expect((await post('/test/empty', key)).status).toBe(204);
    const again = await post('/test/empty', key);
    expect(again.status).toBe(204);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.text()).toBe('');
  });

  describe('a running key left by a crashed process', () => {
    async function leaveRunningRow(key: string, lockedUntil: string) {
      await database.pool.query(
        `INSERT INTO http_idempotency_keys (merchant_id, mode, key, operation, request_hash, state, lock_token, locked_until)
         VALUES ('mer_1', 'test', $1, 'POST /test/things', $2, 'running', gen_random_uuid(), now() + $3::interval)`,
        [key, fingerprintOf({ params: {}, query: {}, body: { amount: 9 } }), lockedUntil],
      );
    }

    it('is taken over once its lease has expired', async () => {
      const key = freshKey();
      await leaveRunningRow(key, '-1 second');
      const before = runs.count;
      const retry = await post('/test/things', key, { amount: 9 });
      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotent-replayed')).toBeNull();
      expect(runs.count).toBe(before + 1);
      expect((await storedRow(key))[0]).toMatchObject({ state: 'done', status_code: 201 });
    });

    it('is respected while its lease runs', async () => {
      const key = freshKey();
      await leaveRunningRow(key, '1 minute');
      const retry = await post('/test/things', key, { amount: 9 });
      expect(retry.status).toBe(409);
    });
  });

  describe('IdempotencyStore', () => {
    it('does not let a request whose lease was taken over overwrite the outcome', async () => {
      const store = app.get(IdempotencyStore);
      const request = {
        merchantId: 'mer_store',
        mode: 'test' as const,
        key: freshKey(),
        operation: 'POST /x',
        requestHash: 'h',
      };
      const begun = await store.begin(request);
      expect(begun.kind).toBe('started');
      expect(await store.complete(request, '00000000-0000-0000-0000-000000000000', 200, '{}')).toBe(
        false,
      );
      if (begun.kind !== 'started') throw new Error('expected a claim');
      expect(await store.complete(request, begun.lockToken, 200, '{"ok":true}')).toBe(true);
      expect(await store.begin(request)).toEqual({
        kind: 'replay',
        statusCode: 200,
        body: '{"ok":true}',
      });
    });

    it('deletes keys past the retention and keeps the others', async () => {
      const store = app.get(IdempotencyStore);
      const old = freshKey();
      const recent = freshKey();
      await database.pool.query(
        `INSERT INTO http_idempotency_keys (merchant_id, mode, key, operation, request_hash, state, status_code, response_body, created_at)
         VALUES ('mer_gc', 'test', $1, 'POST /x', 'h', 'done', 200, '{}', now() - interval '25 hours'),
                ('mer_gc', 'test', $2, 'POST /x', 'h', 'done', 200, '{}', now() - interval '23 hours')`,
        [old, recent],
      );
      expect(await store.deleteOlderThan(24 * 3_600_000)).toBeGreaterThanOrEqual(1);
      const left = await database.pool.query(
        `SELECT key FROM http_idempotency_keys WHERE merchant_id = 'mer_gc'`,
      );
      expect(left.rows).toEqual([{ key: recent }]);
    });
  });
});
