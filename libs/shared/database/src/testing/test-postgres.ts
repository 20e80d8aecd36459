/**
 * Throwaway databases for this library's own int tests. Everyone else uses `@xaalis/testing`,
 * which is built on this library: importing it back from here would be a dependency cycle.
 */
import { spawnSync } from 'node:child_process';
import { createScratchDatabase, type ScratchDatabase, type ScratchDatabaseOptions } from '../scratch-database';

const serverUrl = (): string =>
  // eslint-disable-next-line no-restricted-properties -- a test-only setting, not service configuration
  process.env.TEST_DATABASE_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/test';

// eslint-disable-next-line no-restricted-properties -- as above: read by test tooling only
const servicesRequired = (): boolean => process.env.XAALIS_REQUIRE_SERVICES === 'true';

export const createTestDatabase = (options: ScratchDatabaseOptions = {}): Promise<ScratchDatabase> =>
  createScratchDatabase(serverUrl(), { prefix: 'xaalis_test', ...options });

/** Synchronous, because jest decides between describe and describe.skip before any await. */
function unreachable(): string | undefined {
  const script = `
    const { Client } = require(${JSON.stringify(require.resolve('pg'))});
    const client = new Client({ connectionString: process.argv[1], connectionTimeoutMillis: 3000 });
    client.connect().then(() => client.end()).then(() => process.exit(0),
      (error) => { console.error(error.message); process.exit(1); });`;
  const result = spawnSync(process.execPath, ['-e', script, serverUrl()], { encoding: 'utf8', timeout: 10_000 });
  return result.status === 0 ? undefined : (result.stderr || result.error?.message || 'no answer').trim();
}

/** describe, or a skip with a warning (a failure when XAALIS_REQUIRE_SERVICES=true) without Postgres. */
export function describeWithPostgres(name: string, fn: () => void): void {
  const reason = unreachable();
  if (reason === undefined) return describe(name, fn);
  const message = `Postgres is unreachable (${reason}); set TEST_DATABASE_URL`;
  if (servicesRequired()) {
    return describe(name, () => it('needs Postgres (XAALIS_REQUIRE_SERVICES=true)', () => fail(message)));
  }
  console.warn(`Postgres tests skipped: ${name}. ${message}`);
  describe.skip(name, fn);
}

function fail(message: string): never {
  throw new Error(message);
}
