import type { FailpointName } from '@xaalis/failpoints';
import { serviceEnv } from './fixtures';
import { HttpClient } from './http';
import { startProcess, type ManagedProcess } from './processes';

/** What `npm start` prints once it takes traffic. */
export const RUNNING = /^Xaalis is running at (http:\/\/localhost:\d+) /;

export interface RunningService {
  run: ManagedProcess;
  http: HttpClient;
}

/**
 * `npm start`'s entry as a process of its own on a test's database, armed, when `crashAt` names a
 * failpoint, to kill itself (SIGKILL) there: what the crash suites start, then restart clean on
 * the same database. `env` holds the suite's database, data dir, secrets and timings.
 */
export async function startCrashableService(
  env: Record<string, string>,
  crashAt?: FailpointName,
): Promise<RunningService> {
  const run = startProcess({
    name: crashAt ? `embedded (${crashAt}=crash)` : 'embedded',
    entry: 'apps/embedded/src/main.ts',
    env: {
      ...serviceEnv(),
      ...env,
      ...(crashAt ? { XAALIS_FAILPOINTS: `${crashAt}=crash` } : {}),
    },
  });
  const [, url] = await run.waitForLine(RUNNING, 120_000);
  return { run, http: new HttpClient(url!) };
}
