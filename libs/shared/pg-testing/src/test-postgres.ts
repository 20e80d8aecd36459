import { spawnSync } from 'node:child_process';
import { describeNeeding } from './describe-needing';

/**
 * Test-only settings, so not part of the service's configuration (`loadConfig`): the server on
 * which each suite creates its own throwaway database, and CI's "never pass by skipping".
 */
export const testDatabaseUrl = (): string =>
  process.env.TEST_DATABASE_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/test';

export const servicesRequired = (): boolean => process.env.XAALIS_REQUIRE_SERVICES === 'true';

let probe: string | null | undefined;

/**
 * Why the test server cannot be reached, or null when it can. Synchronous (a child process tries
 * to connect) because jest decides between describe and describe.skip before any await.
 */
export function postgresProblem(): string | null {
  probe ??= (() => {
    const script = `
      const { Client } = require(${JSON.stringify(require.resolve('pg'))});
      const client = new Client({ connectionString: process.argv[1], connectionTimeoutMillis: 3000 });
      client.connect().then(() => client.query('SELECT 1')).then(() => client.end())
        .then(() => process.exit(0), (error) => { console.error(error.message); process.exit(1); });`;
    const result = spawnSync(process.execPath, ['-e', script, testDatabaseUrl()], {
      encoding: 'utf8',
      timeout: 10_000,
    });
    return result.status === 0
      ? null
      : (result.stderr || result.error?.message || 'no answer').trim();
  })();
  return probe;
}

/** The URL without its password, for messages. */
const shown = (url: string): string => {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable TEST_DATABASE_URL)';
  }
};

/**
 * `describe` for suites that need the test Postgres. When it is unreachable the suite is skipped
 * with a warning saying so, or fails when XAALIS_REQUIRE_SERVICES=true (CI must not go green by
 * skipping).
 */
export function describeWithPostgres(name: string, fn: () => void): void {
  const problem = postgresProblem();
  describeNeeding(
    'Postgres',
    problem === null
      ? undefined
      : `Postgres at ${shown(testDatabaseUrl())} is unreachable (${problem}); set TEST_DATABASE_URL`,
    name,
    fn,
  );
}
