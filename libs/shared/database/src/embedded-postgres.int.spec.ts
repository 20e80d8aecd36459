import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';
import { findPostgresBinaries, postgresUser } from './embedded-postgres-binaries';
import { isAlive, readPostmasterPid } from './postmaster-pid';

const binariesMissing = (() => {
  try {
    findPostgresBinaries();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
})();

const describeEmbedded = binariesMissing === undefined ? describe : describe.skip;
if (binariesMissing !== undefined)
  console.warn(`Embedded Postgres tests skipped: ${binariesMissing}`);

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolvePort) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

/** `sql`'s rows once the server answers again (it is being started again), within 30 s. */
async function queryOnceBack<T>(url: string, sql: string): Promise<T[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      return await query<T>(url, sql);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolveWait) => setTimeout(resolveWait, 100));
    }
  }
}

const BACK = 'The embedded Postgres is running again.';

/**
 * `lines` once the supervisor has said the server is back: it says so when its start returns,
 * which may be a moment after the server first answers a query. Within 10 s.
 */
async function untilBack(lines: string[]): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  while (lines.at(-1) !== BACK && Date.now() < deadline) {
    await new Promise((resolveWait) => setTimeout(resolveWait, 20));
  }
  return lines;
}

const ROOT = resolve(__dirname, '../../../..');

/** Another process serving the data dir, as the running service would. */
function startInChild(dataDir: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'tools/scripts/run.js'),
      join(__dirname, 'testing/embedded-postgres-child.ts'),
      dataDir,
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolveChild, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('READY')) resolveChild(child);
    });
    child.once('exit', (code) => reject(new Error(`child exited with ${code}`)));
  });
}

describeEmbedded('startEmbeddedPostgres', () => {
  let dataDir: string;
  let serverHome: string;
  const servers: EmbeddedPostgres[] = [];
  const start = async (options: { port?: number; log?: (line: string) => void } = {}) => {
    const server = await startEmbeddedPostgres({ dataDir, serverHome, ...options });
    servers.push(server);
    return server;
  };

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'xaalis-embedded-'));
    // Ours to open: under root the server runs as the postgres OS user, and these tests are about
    // a cluster under DATA_DIR (embedded-postgres-placement.int.spec.ts: one out of its reach).
    chmodSync(dataDir, 0o711);
    // Where binaries from a checkout closed to that user would be copied, removed with the test's.
    serverHome = join(dataDir, 'server-home');
  });

  afterEach(async () => {
    for (const server of servers.splice(0).reverse()) await server.stop();
    const leftover = readPostmasterPid(join(dataDir, 'pg'));
    if (leftover !== undefined && isAlive(leftover.pid)) process.kill(leftover.pid, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('initialises on first start and keeps data and port across restarts', async () => {
    const first = await start();
    expect(first.ownsServer).toBe(true);
    expect(first.placement).toMatchObject({ cluster: join(dataDir, 'pg'), clusterInDataDir: true });
    expect(first.url).toMatch(
      new RegExp(`^postgres://postgres:[0-9a-f]+@127\\.0\\.0\\.1:${first.port}/xaalis$`),
    );
    await query(
      first.url,
      'CREATE TABLE kept (v text); INSERT INTO kept VALUES ($$before restart$$)',
    );
    await first.stop();
    expect(readPostmasterPid(join(dataDir, 'pg'))).toBeUndefined();

    const second = await start();

    expect(second.port).toBe(first.port);
    expect(await query(second.url, 'SELECT v FROM kept')).toEqual([{ v: 'before restart' }]);
    expect(JSON.parse(readFileSync(join(dataDir, 'pg.json'), 'utf8'))).toEqual(
      expect.objectContaining({ port: first.port, ownerPid: process.pid }),
    );
  });

  it('uses the port it is given', async () => {
    const port = await freePort();

    const server = await start({ port });

    expect(server.port).toBe(port);
    expect(await query(server.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('removes a stale postmaster.pid whose pid now belongs to another program', async () => {
    const server = await start();
    await server.stop();
    // As after a crash and a reboot: the pid in the file is now some other process of the user
    // the server runs as, which Postgres would take for a running postmaster.
    const runAs = postgresUser();
    const other = spawn('sleep', ['30'], { ...runAs, stdio: 'ignore' });
    try {
      const lockFile = `${other.pid}\n${dataDir}/pg\n0\n${server.port}\n\n127.0.0.1\n0 0\nready   \n`;
      writeFileSync(join(dataDir, 'pg', 'postmaster.pid'), lockFile);

      const again = await start();

      expect(await query(again.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
      expect(again.ownsServer).toBe(true);
      expect(readPostmasterPid(join(dataDir, 'pg'))?.pid).not.toBe(other.pid);
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('recovers at the next start after the server and its owner were both killed (stale postmaster.pid)', async () => {
    const owner = await startInChild(dataDir);
    const served = readPostmasterPid(join(dataDir, 'pg'))!;
    const visitor = await start();
    await query(visitor.url, 'CREATE TABLE kept (v int); INSERT INTO kept VALUES (42)');
    await visitor.stop();
    const ownerExited = new Promise((resolveExit) => owner.once('exit', resolveExit));
    owner.kill('SIGKILL');
    await ownerExited;
    process.kill(served.pid, 'SIGKILL');
    while (isAlive(served.pid)) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(true);

    const again = await start();

    expect(again.ownsServer).toBe(true);
    expect(await query(again.url, 'SELECT v FROM kept')).toEqual([{ v: 42 }]);
  });

  it('starts the server again, on the same port with its data, when it is killed while we own it', async () => {
    const lines: string[] = [];
    const server = await start({ log: (line) => lines.push(line) });
    await query(server.url, 'CREATE TABLE kept (v int); INSERT INTO kept VALUES (42)');
    const killed = readPostmasterPid(join(dataDir, 'pg'))!;

    process.kill(killed.pid, 'SIGKILL');

    expect(await queryOnceBack<{ v: number }>(server.url, 'SELECT v FROM kept')).toEqual([
      { v: 42 },
    ]);
    const now = readPostmasterPid(join(dataDir, 'pg'))!;
    expect(now.pid).not.toBe(killed.pid);
    expect(now.port).toBe(server.port);
    expect(await untilBack(lines)).toEqual([
      'The embedded Postgres stopped (SIGKILL); starting it again.',
      BACK,
    ]);
    await server.stop();
    expect(isAlive(now.pid)).toBe(false);
  });

  it('starts an adopted server again when it is killed', async () => {
    const child = await startInChild(dataDir);
    const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
    child.kill('SIGKILL');
    await exited;
    const lines: string[] = [];
    const heir = await start({ log: (line) => lines.push(line) });
    expect(heir.ownsServer).toBe(true);
    const adopted = readPostmasterPid(join(dataDir, 'pg'))!;

    process.kill(adopted.pid, 'SIGKILL');

    expect(await queryOnceBack<{ one: number }>(heir.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    expect(readPostmasterPid(join(dataDir, 'pg'))!.pid).not.toBe(adopted.pid);
    expect(lines[0]).toBe(
      'The embedded Postgres stopped (its process is gone); starting it again.',
    );
  });

  it('takes the server over, on the same port with its data, when the process it visited exits and stops it', async () => {
    const owner = await startInChild(dataDir);
    const lines: string[] = [];
    const visitor = await start({ log: (line) => lines.push(line) });
    expect(visitor.ownsServer).toBe(false);
    await query(visitor.url, 'CREATE TABLE kept (v int); INSERT INTO kept VALUES (7)');
    const served = readPostmasterPid(join(dataDir, 'pg'))!;

    const ownerExited = new Promise((resolveExit) => owner.once('exit', resolveExit));
    owner.kill('SIGTERM'); // an ordinary exit: its server is stopped with it
    await ownerExited;

    expect(await queryOnceBack<{ v: number }>(visitor.url, 'SELECT v FROM kept')).toEqual([
      { v: 7 },
    ]);
    const now = readPostmasterPid(join(dataDir, 'pg'))!;
    expect(now.pid).not.toBe(served.pid);
    expect(now.port).toBe(visitor.port);
    expect(await untilBack(lines)).toEqual([
      'The embedded Postgres stopped (its process is gone); starting it again.',
      BACK,
    ]);
    expect(JSON.parse(readFileSync(join(dataDir, 'pg.json'), 'utf8'))).toEqual(
      expect.objectContaining({ ownerPid: process.pid }),
    );
    await visitor.stop(); // it is ours now: stopped with us
    expect(isAlive(now.pid)).toBe(false);
  });

  it('keeps trying to start a killed server until it can', async () => {
    const lines: string[] = [];
    const server = await start({ log: (line) => lines.push(line) });
    const pgDir = join(dataDir, 'pg');
    const killed = readPostmasterPid(pgDir)!;
    chmodSync(pgDir, 0o000); // the server cannot open its cluster: every start fails

    process.kill(killed.pid, 'SIGKILL');
    while (lines.length < 3) await new Promise((resolveWait) => setTimeout(resolveWait, 50));
    chmodSync(pgDir, 0o700);

    expect(await queryOnceBack<{ one: number }>(server.url, 'SELECT 1 AS one')).toEqual([
      { one: 1 },
    ]);
    expect(lines[0]).toBe('The embedded Postgres stopped (SIGKILL); starting it again.');
    expect(lines[1]).toMatch(
      /^The embedded Postgres did not start again \(.+\); next try in 1 s\.$/s,
    );
    expect((await untilBack(lines)).at(-1)).toBe(BACK);
  });

  it('leaves a server shut down cleanly by someone else (Ctrl-C reaches it too) down', async () => {
    const lines: string[] = [];
    const server = await start({ log: (line) => lines.push(line) });
    const { pid } = readPostmasterPid(join(dataDir, 'pg'))!;

    process.kill(pid, 'SIGINT'); // Postgres' fast shutdown, as a terminal's Ctrl-C sends it
    while (isAlive(pid)) await new Promise((resolveWait) => setTimeout(resolveWait, 10));
    await new Promise((resolveWait) => setTimeout(resolveWait, 1_000));

    expect(readPostmasterPid(join(dataDir, 'pg'))).toBeUndefined();
    expect(lines).toEqual([]);
    await server.stop();
  });

  it('leaves a server it was asked to stop stopped', async () => {
    const lines: string[] = [];
    const server = await start({ log: (line) => lines.push(line) });
    const { pid } = readPostmasterPid(join(dataDir, 'pg'))!;

    await server.stop();
    await new Promise((resolveWait) => setTimeout(resolveWait, 1_500));

    expect(isAlive(pid)).toBe(false);
    expect(readPostmasterPid(join(dataDir, 'pg'))).toBeUndefined();
    expect(lines).toEqual([]);
  });

  it('connects to a server another live process runs, and adopts it once that process is killed', async () => {
    const child = await startInChild(dataDir);
    try {
      const visitor = await start();
      expect(visitor.ownsServer).toBe(false);
      await query(
        visitor.url,
        'CREATE TABLE kept (v text); INSERT INTO kept VALUES ($$from the visitor$$)',
      );
      await visitor.stop();
      const serving = readPostmasterPid(join(dataDir, 'pg'))!;
      expect(isAlive(serving.pid)).toBe(true);

      const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
      child.kill('SIGKILL');
      await exited;
      expect(isAlive(serving.pid)).toBe(true); // orphaned, still serving

      const heir = await start();
      expect(heir.ownsServer).toBe(true);
      expect(heir.port).toBe(serving.port);
      expect(await query(heir.url, 'SELECT v FROM kept')).toEqual([{ v: 'from the visitor' }]);
      await heir.stop();
      expect(isAlive(serving.pid)).toBe(false);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
