import { rowsScanned, watchStatements, type StatementWatch } from '@xaalis/pg-testing';
import { Pool } from 'pg';
import {
  type TestDatabase,
  createTestDatabase,
  describeWithPostgres,
} from '../test-support/test-postgres';
import { IdempotencyStore, type BeginResult } from './idempotency.store';

/**
 * Group commit of the idempotency store's claims and completions: those made while one statement
 * is on its way share the next, claims and completions together, and each request still gets what
 * it would have got alone.
 */
describeWithPostgres('IdempotencyStore group commit', () => {
  let database: TestDatabase;
  let watch: StatementWatch;
  let store: IdempotencyStore;
  let keyNumber = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    watch = watchStatements(database.pool, (name) => name.startsWith('idempotency_'));
  });

  afterAll(async () => {
    await database?.drop();
  });

  beforeEach(() => {
    watch.clear();
    store = new IdempotencyStore(watch.pool, { idempotencyLeaseMs: 60_000 });
  });

  const scopeOf = (key: string) => ({ merchantId: 'mer_group', mode: 'test' as const, key });
  const freshKeys = (count: number) =>
    Array.from({ length: count }, () => `group-${Date.now()}-${(keyNumber += 1)}`);
  const requestOf = (key: string) => ({
    ...scopeOf(key),
    operation: 'POST /v1/payments',
    requestHash: `hash-${key}`,
  });
  const begin = (key: string) => store.begin(requestOf(key));
  const tokenOf = (begun: BeginResult): string => {
    if (begun.kind !== 'started') throw new Error(`expected a claim, got ${JSON.stringify(begun)}`);
    return begun.lockToken;
  };

  async function completeAll(keys: string[], tokens: string[]): Promise<boolean[]> {
    return Promise.all(
      keys.map((key, index) =>
        store.complete(requestOf(key), tokens[index]!, 201, JSON.stringify({ key })),
      ),
    );
  }

  async function expectReplays(keys: string[]): Promise<void> {
    for (const key of keys) {
      expect(await begin(key)).toEqual({
        kind: 'replay',
        statusCode: 201,
        body: JSON.stringify({ key }),
      });
    }
  }

  it('claims the keys begun meanwhile in one statement, and completes them in one', async () => {
    const keys = freshKeys(10);

    const tokens = (await Promise.all(keys.map(begin))).map(tokenOf);
    expect(new Set(tokens).size).toBe(10);
    expect(watch.statements).toEqual(['idempotency_claim', 'idempotency_writes']);

    watch.clear();
    expect(await completeAll(keys, tokens)).toEqual(Array(10).fill(true));
    expect(watch.statements).toEqual(['idempotency_complete', 'idempotency_writes']);
    await expectReplays(keys);
  });

  it('writes claims and completions made meanwhile in one statement', async () => {
    const done = freshKeys(3);
    const doneTokens = (await Promise.all(done.map(begin))).map(tokenOf);
    const fresh = freshKeys(3);
    watch.clear();

    const [completed, begun] = await Promise.all([
      completeAll(done, doneTokens),
      Promise.all(fresh.map(begin)),
    ]);

    expect(completed).toEqual([true, true, true]);
    expect(begun.map((result) => result.kind)).toEqual(['started', 'started', 'started']);
    // The first completion went alone; the five writes made meanwhile went together.
    expect(watch.statements).toEqual(['idempotency_complete', 'idempotency_writes']);
    await expectReplays(done);
  });

  it('replays a key repeated while its outcome is still on its way', async () => {
    const [key] = freshKeys(1);
    const token = tokenOf(await begin(key!));

    // As the response does: the outcome is not waited for before the repeat arrives. The repeat's
    // claim goes in the same lane, after the completion: it finds the outcome.
    const stored = store.complete(requestOf(key!), token, 201, JSON.stringify({ key }));
    const repeat = await begin(key!);

    expect(repeat).toEqual({ kind: 'replay', statusCode: 201, body: JSON.stringify({ key }) });
    expect(await stored).toBe(true);
  });

  it('stores the outcomes still on their way before the application shuts down', async () => {
    const keys = freshKeys(5);
    const tokens = (await Promise.all(keys.map(begin))).map(tokenOf);
    void completeAll(keys, tokens);

    await store.beforeApplicationShutdown();

    const { rows } = await database.pool.query<{ state: string }>(
      `SELECT state FROM http_idempotency_keys WHERE key = ANY($1)`,
      [keys],
    );
    expect(rows.map((row) => row.state)).toEqual(Array(5).fill('done'));
  });

  it('gives a key begun twice in one batch to one request, the other told it is in progress', async () => {
    const [first, twice, other] = freshKeys(3);

    const [alone, a, b, c] = await Promise.all([
      begin(first!),
      begin(twice!),
      begin(twice!),
      begin(other!),
    ]);

    expect(watch.statements.slice(0, 2)).toEqual(['idempotency_claim', 'idempotency_writes']);
    expect([alone.kind, c.kind]).toEqual(['started', 'started']);
    expect([a.kind, b.kind].sort()).toEqual(['conflict', 'started']);
    expect([a, b].find((begun) => begun.kind === 'conflict')).toEqual({
      kind: 'conflict',
      reason: 'in_progress',
    });
  });

  it('claims each key alone when the batch fails before reaching the server', async () => {
    watch.failNext('idempotency_writes', new Error('Connection terminated unexpectedly'));
    const keys = freshKeys(4);

    const tokens = (await Promise.all(keys.map(begin))).map(tokenOf);

    expect(watch.statements).toEqual([
      'idempotency_claim',
      'idempotency_writes',
      'idempotency_claim',
      'idempotency_claim',
      'idempotency_claim',
    ]);
    expect(await completeAll(keys, tokens)).toEqual([true, true, true, true]);
    await expectReplays(keys);
  });

  it('finds its own claim when a batch ran but its answer was lost, and owns the key', async () => {
    watch.failNext('idempotency_writes', {
      afterRunning: new Error('Connection terminated unexpectedly'),
    });
    const keys = freshKeys(4);

    const tokens = (await Promise.all(keys.map(begin))).map(tokenOf);

    // Retried alone, each claim met its own row: no request was told its key was in progress.
    expect(watch.statements.filter((name) => name === 'idempotency_claim')).toHaveLength(4);
    expect(await completeAll(keys, tokens)).toEqual([true, true, true, true]);
    await expectReplays(keys);
  });

  it('completes each alone when a completion batch fails before reaching the server', async () => {
    const keys = freshKeys(4);
    const tokens = (await Promise.all(keys.map(begin))).map(tokenOf);
    watch.clear();
    watch.failNext('idempotency_writes', new Error('Connection terminated unexpectedly'));

    expect(await completeAll(keys, tokens)).toEqual([true, true, true, true]);

    expect(watch.statements).toEqual([
      'idempotency_complete',
      'idempotency_writes',
      'idempotency_complete',
      'idempotency_complete',
      'idempotency_complete',
    ]);
    await expectReplays(keys);
  });

  it('finds the keys a batch writes by their key, however much the table grew since its first runs', async () => {
    // One session, as a pooled connection lives: a prepared statement's plan, made on the first
    // runs while the table was nearly empty, was a scan of the whole table on every run after.
    const grown = await createTestDatabase('xaalis_http_grown');
    const session = new Pool({ connectionString: grown.url, max: 1 });
    try {
      const watched = watchStatements(session, (name) => name === 'idempotency_writes');
      const oneSession = new IdempotencyStore(watched.pool, { idempotencyLeaseMs: 60_000 });
      const claimAndComplete = async () => {
        const keys = freshKeys(3);
        const begun = await Promise.all(keys.map((key) => oneSession.begin(requestOf(key))));
        const completed = await Promise.all(
          keys.map((key, index) =>
            oneSession.complete(requestOf(key), tokenOf(begun[index]!), 201, '{}'),
          ),
        );
        expect(completed).toEqual([true, true, true]);
      };
      for (let run = 0; run < 6; run += 1) await claimAndComplete();
      expect(watched.statements).toHaveLength(12);
      await grown.pool.query(
        `INSERT INTO http_idempotency_keys
                (merchant_id, mode, key, operation, request_hash, state, status_code, response_body)
         SELECT 'mer_other', 'test', 'grown-' || n, 'POST /v1/payments', 'hash', 'done', 201, '{}'
           FROM generate_series(1, 20000) AS n`,
      );
      const before = await rowsScanned(session, 'http_idempotency_keys');

      await claimAndComplete();

      expect(watched.statements).toHaveLength(14);
      expect((await rowsScanned(session, 'http_idempotency_keys')) - before).toBeLessThan(100);
    } finally {
      await session.end();
      await grown.drop();
    }
  });

  it('stores an outcome whose key the retention sweep took meanwhile, alone and in a batch', async () => {
    const keys = freshKeys(4);
    const tokens = (await Promise.all(keys.map(begin))).map(tokenOf);
    await database.pool.query(
      `DELETE FROM http_idempotency_keys WHERE merchant_id = 'mer_group' AND key = ANY($1)`,
      [keys],
    );
    watch.clear();

    expect(await completeAll(keys, tokens)).toEqual([true, true, true, true]);

    expect(watch.statements).toEqual(['idempotency_complete', 'idempotency_writes']);
    await expectReplays(keys);
    const { rows } = await database.pool.query(
      `SELECT operation, request_hash FROM http_idempotency_keys WHERE key = $1`,
      [keys[0]],
    );
    expect(rows).toEqual([{ operation: 'POST /v1/payments', request_hash: `hash-${keys[0]}` }]);
  });

  it('does not complete a key whose lock token is another, alone or in a batch', async () => {
    const keys = freshKeys(3);
    const tokens = (await Promise.all(keys.map(begin))).map(tokenOf);
    const wrong = '00000000-0000-0000-0000-000000000000';

    const results = await completeAll(keys, [tokens[0]!, wrong, tokens[2]!]);

    expect(results).toEqual([true, false, true]);
    expect(await begin(keys[1]!)).toEqual({ kind: 'conflict', reason: 'in_progress' });
  });
});
