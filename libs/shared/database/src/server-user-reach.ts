import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { PostgresBinaries, RunAs } from './embedded-postgres-binaries';

/**
 * What the postgres OS user can reach, found by trying as that user rather than by reading modes:
 * every folder above, ACLs, mount options and the supplementary groups the server will not have
 * (Node drops them when it changes uid) all count, and only a real attempt weighs them all.
 */
function triedAs(runAs: RunAs, script: string, args: string[]): boolean {
  const result = spawnSync('/bin/sh', ['-c', script, 'sh', ...args], {
    ...runAs,
    // Our own working directory may be out of the user's reach (a checkout in /root).
    cwd: '/',
    env: {},
    stdio: 'ignore',
    timeout: 10_000,
  });
  return result.status === 0;
}

/** Can the user enter `dir` (the server's data dir must be under a folder it can enter)? */
export function canEnter(runAs: RunAs, dir: string): boolean {
  return triedAs(runAs, 'cd -- "$1"', [dir]);
}

/**
 * Can the user run the server from these binaries? Running them loads their libraries (found
 * from `bin/../lib`); initdb also reads `share`.
 */
export function canRun(runAs: RunAs, binaries: PostgresBinaries): boolean {
  return triedAs(runAs, '"$1" --version >/dev/null && "$2" --version >/dev/null && cd -- "$3"', [
    binaries.postgres,
    binaries.initdb,
    join(binaries.root, 'share'),
  ]);
}
