import { spawn, type ChildProcess } from 'node:child_process';
import {
  chownSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import type { RunAs } from './embedded-postgres-binaries';
import { sleep } from './embedded-postgres-process';
import { isAlive, readPostmasterPid } from './postmaster-pid';

/**
 * The server binaries run: initdb for a new cluster, the server started and waited for until it
 * accepts connections, and its log (`<dataDir>/pg.log`) read back when something fails.
 */

/** The cluster's superuser. */
export const SERVER_USER = 'postgres';

/**
 * initdb into a side folder renamed at the end, so a crash mid-way never leaves a half-made
 * cluster. The password file goes beside it, where the server user can read it: os.tmpdir() may
 * be closed to that user (TMPDIR in root's home).
 */
export async function initialise(
  initdb: string,
  pgDir: string,
  password: string,
  runAs: RunAs | undefined,
): Promise<void> {
  const building = `${pgDir}.initdb`;
  const passwordFile = `${pgDir}.password`;
  rmSync(building, { recursive: true, force: true });
  rmSync(passwordFile, { force: true });
  mkdirSync(building, { mode: 0o700 });
  writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  if (runAs !== undefined) {
    chownSync(building, runAs.uid, runAs.gid);
    chownSync(passwordFile, runAs.uid, runAs.gid);
  }
  try {
    const args = [
      `--pgdata=${building}`,
      `--username=${SERVER_USER}`,
      `--pwfile=${passwordFile}`,
      '--auth=scram-sha-256',
      '--encoding=UTF8',
      '--locale=C',
      '--no-instructions',
    ];
    const { code, output } = await runToEnd(initdb, args, runAs);
    if (code !== 0) {
      const hint =
        runAs !== undefined
          ? ` (the postgres OS user must be able to reach ${dirname(pgDir)})`
          : '';
      throw new Error(`initdb failed with code ${code}${hint}:\n${output}`);
    }
  } finally {
    rmSync(passwordFile, { force: true });
  }
  renameSync(building, pgDir);
}

/**
 * Starts the server, retrying what a crash or a race leaves behind: a dead server's backends may
 * hold its shared memory for a moment, and a port found free may be taken before we bind it.
 */
export async function launch(
  postgres: string,
  pgDir: string,
  choosePort: (attempt: number) => Promise<number>,
  runAs: RunAs | undefined,
  timeoutMs: number,
  dataDir: string,
): Promise<{ child: ChildProcess; port: number }> {
  for (let attempt = 1; ; attempt++) {
    const port = await choosePort(attempt);
    const logFile = join(dataDir, 'pg.log');
    const logStart = existsSync(logFile) ? statSync(logFile).size : 0;
    // Output goes to a file, not a pipe: the server must keep logging if we die before it does.
    const log = openSync(logFile, 'a');
    const args = [
      '-D',
      pgDir,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
    ];
    const child = spawn(postgres, args, {
      ...runAs,
      ...serverProcess(),
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
    try {
      await waitUntilReady(pgDir, child.pid!, child, timeoutMs, dataDir);
      return { child, port };
    } catch (error) {
      const retry =
        attempt < 10 &&
        /shared memory block|lock file|could not (bind|create any TCP\/IP)/.test(
          logTail(dataDir, logStart),
        );
      if (!retry) throw error;
      await sleep(500);
    }
  }
}

/**
 * Nothing of ours leaks into the server's environment; C messages keep its log readable to us.
 * Our working directory may be closed to the server user (a checkout in /root): it starts in `/`.
 */
function serverProcess(): { env: NodeJS.ProcessEnv; cwd: string } {
  return { env: { LC_ALL: 'C', TZ: 'UTC' }, cwd: '/' };
}

/** Postgres marks postmaster.pid `ready` once it accepts connections (this is what `pg_ctl -w` waits for). */
export async function waitUntilReady(
  pgDir: string,
  pid: number,
  child: ChildProcess | undefined,
  timeoutMs: number,
  dataDir: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child !== undefined && child.exitCode !== null) {
      throw new Error(
        `Postgres exited with code ${child.exitCode} while starting:\n${logTail(dataDir)}`,
      );
    }
    if (child === undefined && !isAlive(pid))
      throw new Error(`Postgres (pid ${pid}) stopped while we waited for it`);
    const current = readPostmasterPid(pgDir);
    if (current?.pid === pid && current.status === 'ready') return;
    await sleep(25);
  }
  child?.kill('SIGKILL');
  throw new Error(`Postgres did not start within ${timeoutMs} ms:\n${logTail(dataDir)}`);
}

function runToEnd(
  command: string,
  args: string[],
  runAs: RunAs | undefined,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      ...runAs,
      ...serverProcess(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** The server's last words (from `since`, a byte offset, when given). */
function logTail(dataDir: string, since = 0): string {
  const file = join(dataDir, 'pg.log');
  if (!existsSync(file)) return '';
  const log = readFileSync(file);
  return log.subarray(Math.max(since, log.length - 4000)).toString('utf8');
}
