import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { stopChild, stopOrphan } from './embedded-postgres-process';
import { isAlive } from './postmaster-pid';

/** The server we own: one we started (its child process), or one we adopted from a dead owner. */
export type OwnedServer = { child: ChildProcess } | { pid: number };

export interface SupervisorOptions {
  /** Starts the server again on the same cluster and port; resolves once it accepts connections. */
  relaunch(): Promise<ChildProcess>;
  /** How long a stop may take before it kills the server. */
  timeoutMs: number;
  /** What the supervisor has to say (the server lost, back, failing to start). */
  log(line: string): void;
  /** How often an adopted server, which is not our child, is looked at. Default 1 s. */
  pollMs?: number;
}

/** Waits before starting the server again after a failed start: 1 s, doubling, 30 s at most. */
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;

/**
 * Keeps the embedded server running for as long as we own it. A server that stops without being
 * asked (killed by a signal, crashed, taken by the OOM killer: anything but a clean shutdown) is
 * started again on the same cluster and port:
 * Postgres replays its WAL, so every committed write is there, and the service's pools open new
 * connections as they need them. Meanwhile requests answer `unavailable` (503, retry shortly), as
 * with any database out of reach. A start that fails (the port taken, the disk full) is tried
 * again, later each time, until it succeeds or the server is stopped.
 *
 * A server we started is our child and tells us when it exits; one adopted from a process that
 * died is looked at every `pollMs`. `stop()` ends the supervision and then the server. Whichever
 * server runs when this process exits normally is stopped with it.
 */
export function superviseServer(
  first: OwnedServer,
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
        const child = await options.relaunch();
        watch({ child });
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

  const watch = (server: OwnedServer) => {
    current = server;
    if ('child' in server) {
      // Exit code 0 is a shutdown someone asked for (Ctrl-C reaches the whole process group,
      // a service manager stops every process of the service): that one stays down.
      server.child.once('exit', (code, signal) => {
        if (signal !== null || code !== 0) lost(signal ?? `exit code ${code}`);
      });
      return;
    }
    poll = setInterval(() => {
      if (isAlive(server.pid)) return;
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
      else await stopOrphan(server.pid, options.timeoutMs);
    },
  };
}
