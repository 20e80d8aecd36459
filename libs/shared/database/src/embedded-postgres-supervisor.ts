import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { stopChild, stopOrphan } from './embedded-postgres-process';
import { isAlive } from './postmaster-pid';

/**
 * The server of the cluster as this process has it: one it started (its child process), one it
 * adopted from a dead owner, or one another live process owns, which it only visits.
 */
export type Server = { child: ChildProcess } | { pid: number } | { visiting: number };

export interface SupervisorOptions {
  /**
   * The server again, on the same cluster and port, once it accepts connections: started, or
   * found running (another process got there first).
   */
  relaunch(): Promise<Server>;
  /** How long a stop may take before it kills the server. */
  timeoutMs: number;
  /** What the supervisor has to say (the server lost, back, failing to start). */
  log(line: string): void;
  /** How often a server that is not our child is looked at. Default 1 s. */
  pollMs?: number;
}

/** Waits before starting the server again after a failed start: 1 s, doubling, 30 s at most. */
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;

/**
 * Keeps the embedded server running for as long as this process uses it. A server that stops
 * without this process asking (killed by a signal, crashed, taken by the OOM killer, or stopped by
 * the process it belonged to, which exited) is started again on the same cluster and port:
 * Postgres replays its WAL, so every committed write is there, and the pools open new connections
 * as they need them. Meanwhile requests answer `unavailable` (503, retry shortly), as with any
 * database out of reach. A start that fails (the port taken, the disk full) is tried again, later
 * each time, until it succeeds or `stop()` is called.
 *
 * A server we started is our child and tells us when it exits; its clean exit (code 0) is a
 * shutdown someone asked for (Ctrl-C reaches the whole process group, a service manager stops
 * every process of the service), and it stays down. Any other server is looked at every `pollMs`.
 * `stop()` ends the supervision and then the server, if it is ours by then; whichever server of
 * ours runs when this process exits normally is stopped with it.
 */
export function superviseServer(
  first: Server,
  options: SupervisorOptions,
): { stop(): Promise<void> } {
  const pollMs = options.pollMs ?? 1_000;
  const stopping = new AbortController();
  let current = first;
  let poll: NodeJS.Timeout | undefined;
  let restarting: Promise<void> | undefined;

  // Without this an ordinary exit would orphan our child; a signal is all 'exit' allows.
  const onExit = () => {
    if ('child' in current) current.child.kill('SIGINT');
  };
  process.once('exit', onExit);

  const lost = (how: string) => {
    if (stopping.signal.aborted || restarting !== undefined) return;
    options.log(`The embedded Postgres stopped (${how}); starting it again.`);
    restarting = restart().finally(() => (restarting = undefined));
  };

  const restart = async () => {
    for (let attempt = 1; !stopping.signal.aborted; attempt++) {
      try {
        watch(await options.relaunch());
        options.log('The embedded Postgres is running again.');
        return;
      } catch (error) {
        const waitMs = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** (attempt - 1));
        options.log(
          `The embedded Postgres did not start again (${(error as Error).message}); next try in ${waitMs / 1000} s.`,
        );
        await sleep(waitMs, undefined, { signal: stopping.signal }).catch(() => undefined);
      }
    }
  };

  const watch = (server: Server) => {
    current = server;
    if ('child' in server) {
      server.child.once('exit', (code, signal) => {
        if (signal !== null || code !== 0) lost(signal ?? `exit code ${code}`);
      });
      return;
    }
    const pid = 'pid' in server ? server.pid : server.visiting;
    poll = setInterval(() => {
      if (isAlive(pid)) return;
      clearInterval(poll);
      lost('its process is gone');
    }, pollMs);
    poll.unref();
  };

  watch(first);
  return {
    async stop() {
      stopping.abort();
      clearInterval(poll);
      await restarting;
      process.removeListener('exit', onExit);
      const server = current;
      if ('child' in server) await stopChild(server.child, options.timeoutMs);
      else if ('pid' in server) await stopOrphan(server.pid, options.timeoutMs);
    },
  };
}
