import { spawnSync } from 'node:child_process';
import { loadConfig } from '@xaalis/config';
import { createScratchDatabase, type ScratchDatabase, type ScratchDatabaseOptions } from '@xaalis/database';

/**
 * Test-only setting, so not part of the service's configuration (`loadConfig`): the server on
 * which each suite creates its own throwaway database.
 */
export const testDatabaseUrl = (): string =>
  process.env.TEST_DATABASE_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/test';

/** `url`, a `pool` on it, and `drop()` (closes the pool, drops the database). */
export type TestDatabase = ScratchDatabase;

export type TestDatabaseOptions = Omit<ScratchDatabaseOptions, 'prefix'>;

/**
 * A fresh database on the test server, named `xaalis_test_<random>`, with every migration of
 * prisma/migrations applied unless `migrate: false`.
 */
export function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  return createScratchDatabase(testDatabaseUrl(), { ...options, prefix: 'xaalis_test' });
}

let probe: { ok: boolean; reason: string } | undefined;

/**
 * Can the test server be reached? Synchronous (a child process tries to connect), because jest
 * decides between describe and describe.skip while collecting tests, before any await.
 */
function probePostgres(): { ok: boolean; reason: string } {
  probe ??= (() => {
    const script = `
      const { Client } = require(${JSON.stringify(require.resolve('pg'))});
      const client = new Client({ connectionString: process.argv[1], connectionTimeoutMillis: 3000 });
      client.connect().then(() => client.query('SELECT 1')).then(() => client.end())
        .then(() => process.exit(0), (error) => { console.error(error.message); process.exit(1); });`;
    const result = spawnSync(process.execPath, ['-e', script, testDatabaseUrl()], { encoding: 'utf8', timeout: 10_000 });
    if (result.status === 0) return { ok: true, reason: '' };
    return { ok: false, reason: (result.stderr || result.error?.message || 'no answer').trim() };
  })();
  return probe;
}

export async function postgresAvailable(): Promise<boolean> {
  return probePostgres().ok;
}

/** The URL without its password, for messages. */
const shown = (url: string): string => {
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '***';
  return parsed.toString();
};

/**
 * `describe` for suites that need the test Postgres. When it is unreachable the suite is skipped
 * with a warning saying so, or fails when XAALIS_REQUIRE_SERVICES=true (CI must not go green by
 * skipping).
 */
export function describeWithPostgres(name: string, fn: () => void): void {
  const { ok, reason } = probePostgres();
  if (ok) {
    describe(name, fn);
    return;
  }
  const message = `Postgres at ${shown(testDatabaseUrl())} is unreachable (${reason})`;
  if (loadConfig().requireServices) {
    describe(name, () => {
      it('needs Postgres (XAALIS_REQUIRE_SERVICES=true)', () => {
        throw new Error(message);
      });
    });
    return;
  }
  console.warn(`Postgres tests skipped: ${name}. ${message}. Set TEST_DATABASE_URL to run them.`);
  describe.skip(name, fn);
}
