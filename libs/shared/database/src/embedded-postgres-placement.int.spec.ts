import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from 'pg';
import { describeNeeding } from '@xaalis/pg-testing';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';
import {
  binariesIn,
  findPostgresBinaries,
  postgresUser,
  type RunAs,
} from './embedded-postgres-binaries';
import { reachableBinaries } from './embedded-postgres-placement';
import { isAlive, readPostmasterPid } from './postmaster-pid';
import { canEnter, canRun } from './server-user-reach';

/**
 * Only root runs the server as another user (postgres), so only root can meet folders that user
 * cannot reach. CI runs as root: there a skip would hide a failure.
 */
function describeAsRoot(name: string, fn: () => void): void {
  const problem = (() => {
    if (process.getuid?.() !== 0)
      return 'they need root (the embedded server changes user only under root)';
    try {
      findPostgresBinaries();
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  })();
  describeNeeding('root and the embedded Postgres binaries', problem, name, fn);
}

const modeOf = (path: string) => statSync(path).mode & 0o777;

/** A folder made by the test with exactly this mode (mkdir's mode goes through the umask). */
function folder(path: string, mode: number): string {
  mkdirSync(path, { recursive: true });
  chmodSync(path, mode);
  return path;
}

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

describeAsRoot(
  'the embedded Postgres under root, beside folders the postgres OS user cannot reach',
  () => {
    let runAs: RunAs;
    let scratch: string;
    let serverHome: string;
    const servers: EmbeddedPostgres[] = [];
    const clusters = new Set<string>();

    const start = async (dataDir: string) => {
      const server = await startEmbeddedPostgres({ dataDir, serverHome });
      servers.push(server);
      clusters.add(server.placement.cluster);
      return server;
    };
    const stateOf = (dataDir: string) =>
      JSON.parse(readFileSync(join(dataDir, 'pg.json'), 'utf8')) as {
        password: string;
        cluster?: string;
      };

    beforeEach(() => {
      runAs = postgresUser()!;
      scratch = mkdtempSync(join(tmpdir(), 'xaalis-placement-'));
      chmodSync(scratch, 0o755);
      serverHome = join(scratch, 'server-home');
    });

    afterEach(async () => {
      for (const server of servers.splice(0).reverse()) await server.stop();
      for (const cluster of clusters) {
        const leftover = readPostmasterPid(cluster);
        if (leftover !== undefined && isAlive(leftover.pid)) process.kill(leftover.pid, 'SIGKILL');
      }
      clusters.clear();
      rmSync(scratch, { recursive: true, force: true });
    });

    it('tries for real whether the postgres OS user can enter a folder, parents included', () => {
      const open = folder(join(scratch, 'open'), 0o755);
      const closed = folder(join(scratch, 'closed'), 0o700);
      const inside = folder(join(closed, 'inside'), 0o755);

      expect([canEnter(runAs, open), canEnter(runAs, closed), canEnter(runAs, inside)]).toEqual([
        true,
        false,
        false,
      ]);
      chmodSync(closed, 0o711);
      expect(canEnter(runAs, inside)).toBe(true);
    });

    it('places the cluster of a closed DATA_DIR under serverHome, finds it again, leaves DATA_DIR closed', async () => {
      const dataDir = folder(join(scratch, 'closed-data'), 0o700);

      const first = await start(dataDir);

      const { cluster } = first.placement;
      expect(first.placement.clusterInDataDir).toBe(false);
      expect(dirname(dirname(cluster))).toBe(join(serverHome, 'clusters'));
      expect(cluster).toMatch(/\/xaalis-placement-[a-z0-9]+-closed-data-[0-9a-f]{8}\/pg$/);
      expect(stateOf(dataDir).cluster).toBe(cluster);
      expect(readFileSync(join(dirname(cluster), 'DATA_DIR'), 'utf8')).toBe(`${dataDir}\n`);
      expect(readdirSync(dirname(cluster)).sort()).toEqual(['DATA_DIR', 'pg']);
      expect(readdirSync(dataDir).sort()).toEqual(['pg.json', 'pg.log']);
      expect(modeOf(join(dataDir, 'pg.json'))).toBe(0o600);
      await query(
        first.url,
        'CREATE TABLE kept (v text); INSERT INTO kept VALUES ($$before restart$$)',
      );
      await first.stop();

      const second = await start(dataDir);

      expect(second.placement.cluster).toBe(cluster);
      expect(await query(second.url, 'SELECT v FROM kept')).toEqual([{ v: 'before restart' }]);
      expect(modeOf(dataDir)).toBe(0o700);
    });

    it('never takes over the cluster of a DATA_DIR that was deleted and made again', async () => {
      const dataDir = folder(join(scratch, 'data'), 0o700);
      const first = await start(dataDir);
      await query(first.url, 'CREATE TABLE kept (v int)');
      await first.stop();
      rmSync(dataDir, { recursive: true });
      folder(dataDir, 0o700);

      const again = await start(dataDir);

      expect(again.placement.cluster).not.toBe(first.placement.cluster);
      expect(await query(again.url, `SELECT to_regclass('kept') AS kept`)).toEqual([
        { kept: null },
      ]);
      // The old cluster is left whole for whoever still has its password.
      expect(existsSync(join(first.placement.cluster, 'PG_VERSION'))).toBe(true);
    });

    it('makes a placed cluster again, in its own folder, when its initdb was cut short', async () => {
      const dataDir = folder(join(scratch, 'data'), 0o700);
      const first = await start(dataDir);
      await first.stop();
      // What a crash during initdb leaves: pg.json naming the folder, no finished cluster in it.
      const { cluster } = first.placement;
      rmSync(cluster, { recursive: true });
      folder(`${cluster}.initdb`, 0o700);

      const again = await start(dataDir);

      expect(again.placement.cluster).toBe(cluster);
      expect(await query(again.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
      expect(readdirSync(dirname(cluster)).sort()).toEqual(['DATA_DIR', 'pg']);
    });

    it('refuses to start when pg.json places the cluster in a folder that is gone', async () => {
      const dataDir = folder(join(scratch, 'data'), 0o700);
      const first = await start(dataDir);
      await first.stop();
      const before = stateOf(dataDir);
      rmSync(dirname(first.placement.cluster), { recursive: true });

      await expect(start(dataDir)).rejects.toThrow(
        `${join(dataDir, 'pg.json')} places the database cluster in ${first.placement.cluster}, which is gone`,
      );
      expect(stateOf(dataDir)).toEqual(before);
    });

    it('keeps a cluster under a DATA_DIR it can reach there, and names what to open once it no longer can', async () => {
      const dataDir = folder(join(scratch, 'data'), 0o711);
      const first = await start(dataDir);
      expect(first.placement).toMatchObject({
        cluster: join(dataDir, 'pg'),
        clusterInDataDir: true,
      });
      expect(stateOf(dataDir).cluster).toBeUndefined();
      await first.stop();
      chmodSync(dataDir, 0o700);

      await expect(start(dataDir)).rejects.toThrow(
        `cannot reach the cluster in ${join(dataDir, 'pg')}: ${dataDir} or a folder above it`,
      );
      expect(modeOf(dataDir)).toBe(0o700);
      expect(existsSync(join(serverHome, 'clusters'))).toBe(false);
    });

    describe('binaries', () => {
      const found = () => findPostgresBinaries();

      /** The package's `native` folder copied to `root`, as npm would have put it there. */
      const installedAt = (root: string) => {
        cpSync(found().root, join(root, 'native'), { recursive: true, verbatimSymlinks: true });
        return binariesIn(join(root, 'native'), found().version);
      };

      it('copies binaries the postgres OS user cannot run into serverHome once, whole and runnable', () => {
        const closed = folder(join(scratch, 'closed-checkout'), 0o700);
        const source = installedAt(closed);
        // As npm leaves them under `umask 077`: the copy must not keep these modes.
        chmodSync(join(source.root, 'lib'), 0o700);
        const deadPid = spawnSync('true').pid;
        const copy = join(serverHome, `postgres-${source.version}`);
        folder(`${copy}.copying-${deadPid}`, 0o755);
        expect(canRun(runAs, source)).toBe(false);

        const placed = reachableBinaries(source, runAs, serverHome);

        expect(placed).toEqual({
          binaries: binariesIn(copy, source.version),
          copiedFrom: source.root,
        });
        expect(canRun(runAs, placed.binaries)).toBe(true);
        expect(readdirSync(serverHome)).toEqual([`postgres-${source.version}`]);
        expect(readdirSync(join(copy, 'lib')).sort()).toEqual(
          readdirSync(join(source.root, 'lib')).sort(),
        );
        expect([modeOf(serverHome), modeOf(copy), modeOf(join(copy, 'lib'))]).toEqual([
          0o755, 0o755, 0o755,
        ]);
        expect([modeOf(closed), modeOf(join(source.root, 'lib'))]).toEqual([0o700, 0o700]);

        const inode = statSync(placed.binaries.postgres).ino;
        expect(reachableBinaries(source, runAs, serverHome)).toEqual(placed);
        expect(statSync(placed.binaries.postgres).ino).toBe(inode);
      });

      it('runs binaries the postgres OS user can run from where they are', () => {
        const source = installedAt(folder(join(scratch, 'open-checkout'), 0o755));

        expect(reachableBinaries(source, runAs, serverHome)).toEqual({ binaries: source });
        expect(existsSync(serverHome)).toBe(false);
      });
    });
  },
);
