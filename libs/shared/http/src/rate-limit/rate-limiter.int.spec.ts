import { loadConfig } from '@xaalis/config';
import { DomainError } from '@xaalis/kernel';
import { Pool } from 'pg';
import {
  type TestDatabase,
  createTestDatabase,
  describeWithPostgres,
} from '../test-support/test-postgres';
import { postgresRateLimiter, RATE_LIMIT_TABLE, take } from './rate-limiter';
import { RateLimits } from './rate-limits';

/**
 * The distributed mode's limiter on the migrated table: two limiters on one pool stand for two
 * gateway replicas, and one key's window holds across them.
 */
describeWithPostgres('postgresRateLimiter', () => {
  let database: TestDatabase;
  let keyNumber = 0;
  const freshKey = () => `key:${Date.now()}-${(keyNumber += 1)}`;

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('shares one window between replicas, and says when it ends', async () => {
    const replicaA = postgresRateLimiter({ perSecond: 1, burst: 5 }, 'credential', database.pool);
    const replicaB = postgresRateLimiter({ perSecond: 1, burst: 5 }, 'credential', database.pool);
    const key = freshKey();
    const decisions = [];
    for (let i = 0; i < 6; i += 1) decisions.push(await take(i % 2 ? replicaB : replicaA, key));
    expect(decisions.slice(0, 5).map((decision) => decision.allowed)).toEqual(Array(5).fill(true));
    expect(decisions[4]).toEqual({ allowed: true, remaining: 0 });
    expect(decisions[5]).toEqual({ allowed: false, retryAfterSeconds: 5 });

    const { rows } = await database.pool.query<{ points: number; expire: string }>(
      `SELECT points, expire FROM ${RATE_LIMIT_TABLE} WHERE key = $1`,
      [`credential:${key}`],
    );
    // B had not seen the window spent, so its refusal went to the table; A, which spent it, refuses
    // from memory until the window ends and charges nothing more.
    expect(rows).toHaveLength(1);
    expect(rows[0].points).toBe(6);
    expect(Number(rows[0].expire) - Date.now()).toBeGreaterThan(3_000);
    expect((await take(replicaA, key)).allowed).toBe(false);
    const after = await database.pool.query<{ points: number }>(
      `SELECT points FROM ${RATE_LIMIT_TABLE} WHERE key = $1`,
      [`credential:${key}`],
    );
    expect(after.rows[0].points).toBe(6);
  });

  it('keeps one window per key and kind', async () => {
    const perCredential = postgresRateLimiter(
      { perSecond: 1, burst: 1 },
      'credential',
      database.pool,
    );
    const perIp = postgresRateLimiter({ perSecond: 1, burst: 1 }, 'ip', database.pool);
    const key = freshKey();
    expect((await take(perCredential, key)).allowed).toBe(true);
    expect((await take(perCredential, key)).allowed).toBe(false);
    expect((await take(perCredential, freshKey())).allowed).toBe(true);
    expect((await take(perIp, key)).allowed).toBe(true);
  });

  it('starts a new window once the last one has ended', async () => {
    const limiter = postgresRateLimiter({ perSecond: 4, burst: 1 }, 'credential', database.pool);
    const key = freshKey();
    expect((await take(limiter, key)).allowed).toBe(true);
    expect(await take(limiter, key)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await take(limiter, key)).toEqual({ allowed: true, remaining: 0 });
  });

  it('falls back to each process memory while Postgres fails', async () => {
    const unreachable = new Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/none' });
    unreachable.on('error', () => undefined);
    const limiter = postgresRateLimiter({ perSecond: 1, burst: 2 }, 'credential', unreachable);
    try {
      const key = freshKey();
      expect((await take(limiter, key)).allowed).toBe(true);
      expect((await take(limiter, key)).allowed).toBe(true);
      expect((await take(limiter, key)).allowed).toBe(false);
    } finally {
      await unreachable.end();
    }
  });

  it('charges the shared table when the gateway runs with Kafka', async () => {
    const config = {
      ...loadConfig({}),
      kafkaBrokers: ['127.0.0.1:9092'],
      rateLimitPerSecond: 1,
      rateLimitBurst: 1,
    };
    const replicaA = new RateLimits(config, database.pool);
    const replicaB = new RateLimits(config, database.pool);
    const keyId = `key_${(keyNumber += 1)}_${Date.now()}`;
    const request = () => ({
      ip: '10.0.0.1',
      xaalis: {
        credential: { kind: 'secret_key' as const, keyId },
        merchantId: 'mer_1',
        mode: 'test' as const,
        ip: '10.0.0.1',
      },
    });
    await replicaA.charge(request(), 'credential');
    const refusal = await replicaB.charge(request(), 'credential').catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(DomainError);
    expect((refusal as DomainError).code).toBe('rate_limited');
  });
});
