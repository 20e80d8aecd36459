import { createTestDatabase, describeWithPostgres, postgresAvailable } from './postgres';

/** A fresh copy of the module: its probe is memoised. */
async function fresh(): Promise<typeof import('./postgres')> {
  let loaded!: typeof import('./postgres');
  await jest.isolateModulesAsync(async () => {
    loaded = await import('./postgres');
  });
  return loaded;
}

function withEnv<T>(env: Record<string, string>, work: () => T): T {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    return work();
  } finally {
    process.env = saved;
  }
}

/** Calls describeWithPostgres with jest's describe replaced, and reports what it registered. */
function register(module: typeof import('./postgres'), env: Record<string, string>) {
  const registered: string[] = [];
  const realDescribe = globalThis.describe;
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  const fake = Object.assign(
    (name: string, body: () => void) => {
      registered.push(`describe ${name}`);
      const realIt = globalThis.it;
      globalThis.it = ((title: string) => registered.push(`it ${title}`)) as unknown as jest.It;
      try {
        body();
      } finally {
        globalThis.it = realIt;
      }
    },
    { skip: (name: string) => registered.push(`skip ${name}`) },
  );
  globalThis.describe = fake as unknown as jest.Describe;
  try {
    withEnv(env, () => module.describeWithPostgres('suite', () => undefined));
    return { registered, warnings: warn.mock.calls.map((call) => String(call[0])) };
  } finally {
    globalThis.describe = realDescribe;
    warn.mockRestore();
  }
}

const UNREACHABLE = 'postgres://postgres:secret@127.0.0.1:1/test';

describe('describeWithPostgres without a server', () => {
  it('skips the suite with a warning that says why', async () => {
    const module = await fresh();
    const { registered, warnings } = register(module, {
      TEST_DATABASE_URL: UNREACHABLE,
      XAALIS_REQUIRE_SERVICES: 'false',
    });

    expect(registered).toEqual(['skip suite']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^Skipped \(needs Postgres\): suite\. Postgres at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/test is unreachable/,
    );
    expect(warnings[0]).not.toContain('secret');
  });

  it('registers a failing test instead when services are required', async () => {
    const module = await fresh();
    const { registered } = register(module, {
      TEST_DATABASE_URL: UNREACHABLE,
      XAALIS_REQUIRE_SERVICES: 'true',
    });

    expect(registered).toEqual([
      'describe suite',
      'it needs Postgres (XAALIS_REQUIRE_SERVICES=true)',
    ]);
  });

  it('reports the server unavailable', async () => {
    const module = await fresh();
    const available = withEnv({ TEST_DATABASE_URL: UNREACHABLE }, () => module.postgresAvailable());
    await expect(available).resolves.toBe(false);
  });
});

describeWithPostgres('createTestDatabase', () => {
  it('creates a migrated database and drops it', async () => {
    expect(await postgresAvailable()).toBe(true);
    const db = await createTestDatabase();
    const name = new URL(db.url).pathname.slice(1);
    const { rows } = await db.pool.query(`SELECT count(*)::int AS n FROM _prisma_migrations`);
    expect(rows[0].n).toBeGreaterThan(0);
    await db.drop();

    const other = await createTestDatabase({ migrate: false });
    try {
      const exists = await other.pool.query(
        'SELECT count(*)::int AS n FROM pg_database WHERE datname = $1',
        [name],
      );
      expect(exists.rows[0].n).toBe(0);
      const tables = await other.pool.query(`SELECT to_regclass('_prisma_migrations') AS t`);
      expect(tables.rows[0].t).toBeNull();
    } finally {
      await other.drop();
    }
  });
});
