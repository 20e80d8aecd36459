import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serviceEnv, tempDataDir } from './support/fixtures';
import { HttpClient } from './support/http';
import { driveIdentityFlow, type IdentityFlowResult } from './support/identity-flow';
import { expectNoSecretsIn } from './support/leaks';
import { killAllStarted, startProcess, type ManagedProcess } from './support/processes';

const RUNNING =
  /^Xaalis is running at (http:\/\/localhost:\d+) \(embedded, data in (.+), ready in (\d+) ms\)$/;
const DEMO_MERCHANT = /^Demo merchant (mer_\w+)/;
const DEMO_KEY = /^Test secret key \(shown once\): (sk_test_\w+)$/;
const START_TIMEOUT_MS = 120_000;

/**
 * `npm start`: all six apps in one process over the in-process bus, with the embedded Postgres
 * (no DATABASE_URL) under a temporary DATA_DIR. Then the data dir's life across restarts: a clean
 * stop, a crash of everything (stale postmaster.pid), a crash of the service alone (an orphaned
 * Postgres server still running on the data dir).
 */
describe('embedded mode (npm start)', () => {
  const dataDir = tempDataDir('embedded');
  const runs: ManagedProcess[] = [];
  let serviceUrl: string;
  let demo: { merchantId: string; secretKey: string };
  let flow: IdentityFlowResult | undefined;

  /** `node tools/scripts/run.js apps/embedded/src/main.ts`, exactly what `npm start` runs. */
  const start = async (label: string) => {
    const run = startProcess({
      name: `embedded (${label})`,
      entry: 'apps/embedded/src/main.ts',
      env: { ...serviceEnv(), DATA_DIR: dataDir.path, DATABASE_URL: undefined },
    });
    runs.push(run);
    const [, url, dir, readyMs] = await run.waitForLine(RUNNING, START_TIMEOUT_MS);
    expect(dir).toBe(dataDir.path);
    return { run, url: url!, readyMs: Number(readyMs), startedMs: Date.now() - run.startedAt };
  };

  /** The embedded Postgres: a `postgres -D <DATA_DIR>/pg` process. */
  const postgresOf = (run: ManagedProcess) =>
    run.groupMembers().filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8')
          .split('\0')
          .includes(join(dataDir.path, 'pg'));
      } catch {
        return false;
      }
    });

  /** What the first run created is all there, through the service at `url`. */
  const expectDataSurvived = async (url: string) => {
    expect(flow).toBeDefined();
    const http = new HttpClient(url);
    const owner = http.browser();
    const signIn = await owner.post('/dashboard/v1/auth/sign-in', {
      body: { email: flow!.owner.email, password: flow!.owner.password },
    });
    expect(signIn.status).toBe(200);
    const me = await owner.get('/dashboard/v1/me');
    expect(me.body.memberships).toEqual([{ merchant_id: flow!.merchantId, role: 'owner' }]);

    const account = await http.get('/v1/account', { bearer: flow!.secretKey });
    expect(account.status).toBe(200);
    expect(account.body).toMatchObject({
      id: flow!.merchantId,
      webhook_url: expect.stringMatching(/^https:\/\//),
    });
    expect((await http.get('/v1/account', { bearer: flow!.restrictedKey })).status).toBe(200);
    const demoAccount = await http.get('/v1/account', { bearer: demo.secretKey });
    expect(demoAccount.body).toMatchObject({ object: 'account', id: demo.merchantId });
    const balance = await http.get('/v1/balance', { bearer: flow!.secretKey });
    expect(balance.body).toMatchObject({ available: 0, pending: 0 });
  };

  afterAll(async () => {
    const killed = await killAllStarted();
    if (killed.length > 0) console.warn(`embedded: killed leftover processes ${killed.join(', ')}`);
    dataDir.remove();
  });

  it('starts with no DATABASE_URL on an embedded Postgres and prints a working test secret key', async () => {
    const first = await start('first start');
    console.log(
      `embedded: first start (initdb, migrations, demo account) ready in ${first.startedMs} ms from spawn (service says ${first.readyMs} ms)`,
    );
    serviceUrl = first.url;
    const output = first.run.output();
    demo = {
      merchantId:
        DEMO_MERCHANT.exec(
          output.split('\n').find((line) => DEMO_MERCHANT.test(line)) ?? '',
        )?.[1] ?? '',
      secretKey:
        DEMO_KEY.exec(output.split('\n').find((line) => DEMO_KEY.test(line)) ?? '')?.[1] ?? '',
    };
    expect(demo.merchantId).toMatch(/^mer_/);
    expect(demo.secretKey).toMatch(/^sk_test_/);
    expect(postgresOf(first.run)).toHaveLength(1);

    const account = await new HttpClient(serviceUrl).get('/v1/account', { bearer: demo.secretKey });
    expect(account.status).toBe(200);
    expect(account.body).toEqual({
      object: 'account',
      id: demo.merchantId,
      name: expect.any(String),
      livemode: false,
      webhook_url: null,
    });
  });

  it('drives the identity flow', async () => {
    const started = Date.now();
    flow = await driveIdentityFlow(serviceUrl);
    console.log(`embedded: identity flow in ${Date.now() - started} ms`);
  });

  it('stops on SIGTERM with exit 0, its Postgres stopped with it', async () => {
    const [first] = runs;
    expect(await first!.stop()).toEqual({ code: 0, signal: null });
    expect(first!.groupMembers()).toEqual([]);
  });

  it('starts again on the same DATA_DIR: the data survived and no new key is printed', async () => {
    const second = await start('after SIGTERM');
    expect(second.run.output()).not.toMatch(/Test secret key|secret_key|sk_test_/);
    expect(second.run.output()).toContain(`Demo merchant ${demo.merchantId}`);
    await expectDataSurvived(second.url);
    serviceUrl = second.url;
  });

  it('starts its Postgres again when that alone is killed, and answers again on the same data', async () => {
    const second = runs[1]!;
    const [killed] = postgresOf(second);
    const http = new HttpClient(serviceUrl);
    process.kill(killed!, 'SIGKILL');

    // The server's backends may answer a last query before they notice; the supervisor's lines
    // say when it is gone and when it is back.
    await second.waitForLine(
      /^The embedded Postgres stopped \(SIGKILL\); starting it again\.$/,
      10_000,
    );
    await second.waitForLine(/^The embedded Postgres is running again\.$/, 30_000);
    const statuses = new Set<number>();
    const deadline = Date.now() + 10_000;
    for (;;) {
      const { status } = await http.get('/v1/account', { bearer: flow!.secretKey });
      statuses.add(status);
      if (status === 200 || Date.now() > deadline) break;
      await new Promise((resolveWait) => setTimeout(resolveWait, 100));
    }

    expect([...statuses].filter((status) => status !== 503)).toEqual([200]);
    await expectDataSurvived(serviceUrl);
    expect(postgresOf(second)).toEqual([expect.any(Number)]);
    expect(postgresOf(second)).not.toContain(killed);
  });

  it('refuses a second start on a port in use, saying so, and leaves the running service alone', async () => {
    const port = new URL(serviceUrl).port;
    const second = runs[1]!;
    const [server] = postgresOf(second);
    const clash = startProcess({
      name: 'embedded (port in use)',
      entry: 'apps/embedded/src/main.ts',
      env: { ...serviceEnv(), DATA_DIR: dataDir.path, DATABASE_URL: undefined, PORT: port },
    });

    expect(await clash.exited).toEqual({ code: 1, signal: null });
    expect(clash.output()).toContain(
      `Port ${port} is already in use (on 0.0.0.0): stop what listens there, or set PORT to another port.`,
    );
    expect(postgresOf(second)).toEqual([server]);
    const account = await new HttpClient(serviceUrl).get('/v1/account', {
      bearer: flow!.secretKey,
    });
    expect(account.status).toBe(200);
  });

  it('starts again after kill -9 of the service and its Postgres (stale postmaster.pid)', async () => {
    const second = runs[1]!;
    expect(postgresOf(second)).toHaveLength(1);
    await second.kill9Group();
    expect(second.groupMembers()).toEqual([]);

    const third = await start('after kill -9 of everything');
    await expectDataSurvived(third.url);
    expect(postgresOf(third.run)).toHaveLength(1);
  });

  it('starts again after kill -9 of the service alone, adopting the orphaned Postgres', async () => {
    const third = runs[2]!;
    const [orphan] = postgresOf(third);
    await third.kill9();
    // The server outlived the service that started it: the next start must make do with it.
    expect(postgresOf(third)).toEqual([orphan]);

    const fourth = await start('after kill -9 of the service');
    await expectDataSurvived(fourth.url);
    expect(postgresOf(third)).toEqual([orphan]);
    expect(fourth.run.output()).not.toMatch(/Test secret key|sk_test_/);

    // A clean stop of the adopting run stops the adopted server too.
    expect(await fourth.run.stop()).toEqual({ code: 0, signal: null });
    expect(fourth.run.groupMembers()).toEqual([]);
    expect(third.groupMembers()).toEqual([]);
  });

  it('never printed a secret other than the demo account it announces', () => {
    expect(flow).toBeDefined();
    const generated = JSON.parse(
      readFileSync(join(dataDir.path, 'secrets.json'), 'utf8'),
    ) as Record<string, string>;
    const database = JSON.parse(readFileSync(join(dataDir.path, 'pg.json'), 'utf8')) as {
      password: string;
    };
    expectNoSecretsIn(
      runs.map((run) => ({ name: run.name, text: run.output() })),
      [...flow!.secrets, ...Object.values(generated), database.password],
    );
    // The demo key is printed on the first start only, by design.
    expect(
      runs.filter((run) => run.output().includes(demo.secretKey)).map((run) => run.name),
    ).toEqual(['embedded (first start)']);
  });
});
