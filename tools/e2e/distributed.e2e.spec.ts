import { APP_NAMES } from '@xaalis/contracts';
import {
  createTestDatabase,
  describeWithKafka,
  describeWithPostgres,
  startKafkaMock,
  type KafkaMock,
  type TestDatabase,
} from '@xaalis/testing';
import { serviceEnv, sharedSecrets, tempDataDir } from './support/fixtures';
import { HttpClient } from './support/http';
import { driveIdentityFlow, type IdentityFlowResult } from './support/identity-flow';
import { expectNoSecretsIn } from './support/leaks';
import {
  childProcesses,
  killAllStarted,
  startProcess,
  type ManagedProcess,
} from './support/processes';

/** `[gateway] gateway ready on port 41234`, as the launcher prefixes what each app prints. */
const READY = /^\[([a-z]+)\] \1 ready on port (\d+)$/;

/**
 * `npm run start:distributed`: the launcher starts the six apps as six processes that meet only
 * through Kafka (the kcat mock cluster) and one throwaway Postgres database. Everything is driven
 * over HTTP through the gateway, as a client would.
 */
describeWithPostgres('distributed mode', () => {
  describeWithKafka('six apps in six processes over Kafka and Postgres', () => {
    const secrets = sharedSecrets();
    let dataDir: ReturnType<typeof tempDataDir> | undefined;
    let kafka: KafkaMock | undefined;
    let db: TestDatabase | undefined;
    let launcher: ManagedProcess;
    let apps: Array<{ app: string; port: number; pid: number }> = [];
    let gatewayUrl: string;
    let flow: IdentityFlowResult | undefined;

    beforeAll(async () => {
      dataDir = tempDataDir('distributed');
      kafka = await startKafkaMock();
      db = await createTestDatabase();
      const started = Date.now();
      launcher = startProcess({
        name: 'distributed launcher',
        entry: 'tools/scripts/distributed.ts',
        env: {
          ...serviceEnv(),
          ...secrets,
          KAFKA_BROKERS: kafka.brokers.join(','),
          DATABASE_URL: db.url,
          // Nothing should be written there with the secrets given; a stray write stays in a temp dir.
          DATA_DIR: dataDir.path,
        },
      });
      const ready = await launcher.waitForLines(READY, APP_NAMES.length, 120_000);
      const children = childProcesses(launcher.pid);
      apps = ready.map(([, app, port]) => ({
        app: app!,
        port: Number(port),
        pid: children.find((child) => child.cmdline.includes(`apps/${app}/src/main.ts`))?.pid ?? -1,
      }));
      gatewayUrl = `http://127.0.0.1:${apps.find((app) => app.app === 'gateway')?.port}`;
      console.log(`distributed: six apps ready in ${Date.now() - started} ms`);
    });

    afterAll(async () => {
      // Whatever failed above: no process of ours outlives the suite.
      const killed = await killAllStarted();
      if (killed.length > 0)
        console.warn(`distributed: killed leftover processes ${killed.join(', ')}`);
      await db?.drop();
      await kafka?.stop();
      dataDir?.remove();
    });

    it('runs each app as its own process, ready on its own port', async () => {
      expect(apps.map(({ app }) => app).sort()).toEqual([...APP_NAMES].sort());
      const pids = apps.map(({ pid }) => pid);
      expect(pids.every((pid) => pid > 0)).toBe(true);
      expect(new Set(pids).size).toBe(APP_NAMES.length);
      expect(pids).not.toContain(launcher.pid);
      expect(pids).not.toContain(process.pid);
      expect(new Set(apps.map(({ port }) => port)).size).toBe(APP_NAMES.length);
      for (const { app, port } of apps) {
        const health = await new HttpClient(`http://127.0.0.1:${port}`).get('/health');
        expect({ app, status: health.status, body: health.body }).toEqual({
          app,
          status: 200,
          body: { status: 'ok' },
        });
      }
    });

    it('drives the identity flow through the gateway (balance crosses Kafka to payouts)', async () => {
      const started = Date.now();
      flow = await driveIdentityFlow(gatewayUrl);
      console.log(`distributed: identity flow in ${Date.now() - started} ms`);
    });

    it('links a payment to checkout and sandbox pages on the gateway, which serves them', async () => {
      expect(flow).toBeDefined();
      const http = new HttpClient(gatewayUrl);
      const created = await http.post('/v1/payments', {
        bearer: flow!.secretKey,
        idempotencyKey: 'distributed-checkout',
        body: { amount: 5_000, provider: 'wave' },
      });
      expect(created.status).toBe(201);
      const gatewayPort = new URL(gatewayUrl).port;
      // The payments process makes the links: on the gateway's port, not on its own.
      for (const link of [created.body.checkout_url, created.body.next_action.url] as string[]) {
        const url = new URL(link);
        expect({ link, port: url.port }).toEqual({ link, port: gatewayPort });
        const page = await http.get(`${url.pathname}${url.search}`);
        expect({ link, status: page.status }).toEqual({ link, status: 200 });
        expect(page.headers.get('content-type')).toContain('text/html');
      }
    });

    it('answers GET /v1/balance from the payouts process: paused, 503 unavailable; resumed, 200', async () => {
      expect(flow).toBeDefined();
      const payouts = apps.find(({ app }) => app === 'payouts')!;
      const http = new HttpClient(gatewayUrl);
      process.kill(payouts.pid, 'SIGSTOP');
      try {
        const started = Date.now();
        const paused = await http.get('/v1/balance', { bearer: flow!.secretKey });
        expect({ status: paused.status, code: paused.body?.error?.code }).toEqual({
          status: 503,
          code: 'unavailable',
        });
        // The gateway waited for a reply (the request timeout) rather than answering itself.
        expect(Date.now() - started).toBeGreaterThanOrEqual(4_000);
      } finally {
        process.kill(payouts.pid, 'SIGCONT');
      }
      const resumed = await http.get('/v1/balance', { bearer: flow!.secretKey });
      expect({ status: resumed.status, body: resumed.body }).toEqual({
        status: 200,
        body: { object: 'balance', livemode: false, currency: 'XOF', available: 0, pending: 0 },
      });
    });

    it('prints no secret in any process output', () => {
      expect(flow).toBeDefined();
      const outputs: Array<{ name: string; text: string }> = APP_NAMES.map((app) => ({
        name: app,
        text: launcher.lines.filter((line) => line.startsWith(`[${app}] `)).join('\n'),
      }));
      outputs.push({ name: 'launcher (all lines)', text: launcher.output() });
      expectNoSecretsIn(outputs, [...flow!.secrets, secrets.SECRET_HASH_KEY, secrets.AUTH_SECRET]);
    });

    it('stops all six on SIGTERM, each exiting 0, leaving no process behind', async () => {
      const exit = await launcher.stop(30_000);
      expect(exit).toEqual({ code: 0, signal: null });
      for (const app of APP_NAMES) expect(launcher.lines).toContain(`[${app}] exited (0)`);
      expect(launcher.groupMembers()).toEqual([]);
    });
  });
});
