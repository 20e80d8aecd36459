import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Socket } from 'node:net';
import { createInterface } from 'node:readline';

/** The repository root: every entry point is started from here, as `npm start` does. */
export const REPO_ROOT = resolve(__dirname, '../../..');

/**
 * Variables that pick the service's infrastructure. They are cleared from what a child inherits,
 * so a developer's shell (or CI) cannot silently point the system under test somewhere else:
 * each spec says exactly which database, brokers and data dir its processes use. NODE_ENV too:
 * jest sets it to `test`, which the auth library reads; `npm start` does not set it.
 */
const INHERITED_SERVICE_VARS = [
  'NODE_ENV',
  'PORT',
  'PUBLIC_BASE_URL',
  'DATA_DIR',
  'DATABASE_URL',
  'EVENTSTORE_URL',
  'KAFKA_BROKERS',
  'SECRET_HASH_KEY',
  'AUTH_SECRET',
  'WEBHOOK_ALLOWED_HOSTS',
];

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface StartOptions {
  /** Shown in messages (`embedded`, `distributed`, …). */
  name: string;
  /** A TypeScript entry point, run from source through tools/scripts/run.js. */
  entry: string;
  /** Arguments after the entry point (`replay all`). */
  args?: string[];
  env: Record<string, string | undefined>;
  /** The working directory; default the repository root, as `npm start` has. */
  cwd?: string;
}

/**
 * One process started by a test, in a process group of its own (`detached`), so that everything
 * it starts (the embedded Postgres, the six apps of the distributed launcher) can be found and
 * killed with it, even when it dies first and leaves them orphaned.
 */
export class ManagedProcess {
  /** Every line of stdout and stderr, in the order they arrived. */
  readonly lines: string[] = [];
  readonly startedAt = Date.now();
  readonly exited: Promise<Exit>;
  readonly pid: number;
  private readonly listeners = new Set<() => void>();
  private exit: Exit | undefined;
  private streamsOpen = 2;

  constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    if (child.pid === undefined) throw new Error(`${name} did not start`);
    this.pid = child.pid;
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
        this.lines.push(line);
        this.notify();
      });
      stream.once('close', () => {
        this.streamsOpen = Math.max(0, this.streamsOpen - 1);
        this.notify();
      });
    }
    this.exited = new Promise((done) => {
      child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        // A grandchild may hold the pipes open after the leader exits: do not wait on it forever.
        setTimeout(() => {
          this.streamsOpen = 0;
          this.notify();
        }, 1_000).unref();
        this.notify();
        done(this.exit);
      });
    });
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  /** The process group's id: the leader's pid, since it was started detached. */
  get pgid(): number {
    return this.pid;
  }

  get hasExited(): boolean {
    return this.exit !== undefined;
  }

  output(): string {
    return this.lines.join('\n');
  }

  /** The last lines, for failure messages. */
  tail(count = 40): string {
    return this.lines.slice(-count).join('\n');
  }

  /**
   * Resolves with the match once `count` lines (seen so far or to come) match `pattern`. Rejects
   * when the process exits first or `timeoutMs` passes, with its last output in the message.
   */
  waitForLines(pattern: RegExp, count: number, timeoutMs: number): Promise<RegExpMatchArray[]> {
    return new Promise((resolvePromise, reject) => {
      const check = () => {
        const matches = this.lines
          .map((line) => pattern.exec(line))
          .filter((m): m is RegExpExecArray => m !== null);
        if (matches.length >= count) return finish(null, matches.slice(0, count));
        // Wait for the pipes to drain after an exit: the last words explain the failure.
        if (this.exit !== undefined && this.streamsOpen === 0) {
          return finish(
            new Error(
              `${this.name} exited (${this.exit.signal ?? this.exit.code}) before printing ${count} × ${pattern}:\n${this.tail()}`,
            ),
          );
        }
      };
      const finish = (error: Error | null, matches?: RegExpMatchArray[]) => {
        clearTimeout(timer);
        this.listeners.delete(check);
        if (error) reject(error);
        else resolvePromise(matches!);
      };
      const timer = setTimeout(
        () =>
          finish(
            new Error(
              `${this.name} printed no ${count} × ${pattern} within ${timeoutMs} ms:\n${this.tail()}`,
            ),
          ),
        timeoutMs,
      );
      this.listeners.add(check);
      check();
    });
  }

  async waitForLine(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
    const [match] = await this.waitForLines(pattern, 1, timeoutMs);
    return match!;
  }

  /** Pids of every live process in this process group (the leader and what it started). */
  groupMembers(): number[] {
    return processGroupMembers(this.pgid);
  }

  /**
   * A graceful stop: SIGTERM to the leader only, as a supervisor would send, and let it stop what
   * it started. If the leader or its group is not gone within `timeoutMs`, the group is killed
   * and the method throws, so a test that asserts a clean shutdown fails rather than hangs.
   */
  async stop(timeoutMs = 20_000): Promise<Exit> {
    if (!this.hasExited) this.child.kill('SIGTERM');
    const deadline = Date.now() + timeoutMs;
    const exit = await within(this.exited, timeoutMs);
    while (this.groupMembers().length > 0 && Date.now() < deadline) await sleep(50);
    const left = this.groupMembers();
    if (exit === undefined || left.length > 0) {
      await killGroup(this.pgid);
      throw new Error(
        `${this.name} did not stop within ${timeoutMs} ms of SIGTERM (${exit === undefined ? 'still running' : `left ${describePids(left)}`}); killed its group:\n${this.tail()}`,
      );
    }
    return exit;
  }

  /** `kill -9` of the leader only: what a crash or the OOM killer does. Children live on. */
  async kill9(): Promise<Exit> {
    if (!this.hasExited) this.child.kill('SIGKILL');
    return this.exited;
  }

  /** `kill -9` of the whole group: the leader and everything it started die at once. */
  async kill9Group(): Promise<Exit> {
    await killGroup(this.pgid);
    return this.exited;
  }
}

/** Every process a test started, so teardown can find them whatever happened to the test. */
const started = new Set<ManagedProcess>();

/**
 * Starts `node tools/scripts/run.js <entry>` from the repository root with the given variables
 * (on top of the parent's, minus the service's own, see INHERITED_SERVICE_VARS).
 */
export function startProcess(options: StartOptions): ManagedProcess {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of INHERITED_SERVICE_VARS) delete env[name];
  for (const [name, value] of Object.entries(options.env)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  const child = spawn(
    process.execPath,
    [
      join(REPO_ROOT, 'tools/scripts/run.js'),
      resolve(REPO_ROOT, options.entry),
      ...(options.args ?? []),
    ],
    {
      cwd: options.cwd ?? REPO_ROOT,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const managed = new ManagedProcess(options.name, child);
  started.add(managed);
  watch(managed.pgid);
  return managed;
}

/**
 * For afterAll: SIGKILL every group a test started that still has a live member (a failed test
 * leaves its service running; a `kill -9`ed leader leaves its orphans). Returns what it killed.
 */
export async function killAllStarted(): Promise<number[]> {
  const killed: number[] = [];
  for (const managed of started) {
    const members = managed.groupMembers();
    if (members.length > 0) {
      killed.push(...members);
      await killGroup(managed.pgid);
    }
    started.delete(managed);
  }
  // Nothing left to guard: the watchdog exits when its stdin ends.
  watchdog?.stdin?.end();
  watchdog = undefined;
  return killed;
}

/**
 * The safety net for when afterAll never runs (Ctrl-C, a crashed or killed runner): a detached
 * watchdog (watchdog.js) that kills every group we report once our end of its stdin closes.
 */
let watchdog: ChildProcess | undefined;

function watch(pgid: number): void {
  if (watchdog === undefined || watchdog.exitCode !== null) {
    watchdog = spawn(process.execPath, [join(__dirname, 'watchdog.js')], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    // Neither the watchdog nor its pipe may keep the test runner alive.
    watchdog.unref();
    (watchdog.stdin as Socket).unref();
    // A watchdog that died (EPIPE) must not take the test run down; the next start makes another.
    watchdog.stdin!.on('error', () => undefined);
  }
  watchdog.stdin!.write(`${pgid}\n`);
}

/**
 * SIGKILL a process group and wait until none of its members is left. Only groups that still have
 * members are signalled: a group id is not reused while a member lives, so this never reaches a
 * process the tests did not start.
 */
export async function killGroup(pgid: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (processGroupMembers(pgid).length > 0) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
    if (Date.now() > deadline)
      throw new Error(
        `process group ${pgid} survived SIGKILL: ${describePids(processGroupMembers(pgid))}`,
      );
    await sleep(25);
  }
}

/** Live members of a process group, read from /proc (zombies count as gone). */
export function processGroupMembers(pgid: number): number[] {
  return listProcesses()
    .filter((p) => p.pgid === pgid && p.state !== 'Z')
    .map((p) => p.pid);
}

/** Live direct children of a process, with their command lines. */
export function childProcesses(ppid: number): Array<{ pid: number; cmdline: string }> {
  return listProcesses()
    .filter((p) => p.ppid === ppid && p.state !== 'Z')
    .map((p) => ({ pid: p.pid, cmdline: cmdlineOf(p.pid) }));
}

interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
  state: string;
}

function listProcesses(): ProcessInfo[] {
  const found: ProcessInfo[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // Gone between readdir and read.
    }
    // `pid (comm) state ppid pgrp …`; comm may hold spaces and parentheses, so split after the last ')'.
    const [state, ppid, pgid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    found.push({ pid: Number(entry), ppid: Number(ppid), pgid: Number(pgid), state: state! });
  }
  return found;
}

function cmdlineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

function describePids(pids: number[]): string {
  return pids.map((pid) => `${pid} (${cmdlineOf(pid) || '?'})`).join(', ');
}

/** The promise's value, or undefined once `ms` have passed (the timer is cleared either way). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((done) => (timer = setTimeout(() => done(undefined), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/** What an app started alone prints once it takes traffic: `payments ready on port 41234`. */
export const APP_READY = /^([a-z]+) ready on port (\d+)$/;

/** One app alone (`apps/<app>/src/main.ts`, as the launcher starts each), once it is ready. */
export async function startApp(
  app: string,
  env: Record<string, string | undefined>,
  timeoutMs = 120_000,
): Promise<{ run: ManagedProcess; port: number }> {
  const run = startProcess({ name: app, entry: `apps/${app}/src/main.ts`, env });
  const [, , port] = await run.waitForLine(APP_READY, timeoutMs);
  return { run, port: Number(port) };
}
