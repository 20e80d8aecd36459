import { Pool } from 'pg';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '@xaalis/testing';
import { serviceEnv, sharedSecrets, tempDataDir } from './support/fixtures';
import { driveIdentityFlow, type IdentityFlowResult } from './support/identity-flow';
import { killAllStarted, startProcess, type ManagedProcess } from './support/processes';

/**
 * `npm run replay` rebuilds read models from the streams next to a running service: the service
 * answers throughout, and the rebuilt tables equal the ones the live projection wrote.
 */
describeWithPostgres('replay', () => {
  let db: TestDatabase;
  let service: ManagedProcess;
  let flow: IdentityFlowResult;
  let baseUrl: string;
  const dataDir = tempDataDir('replay');
  const env = () => ({ ...serviceEnv(), ...secrets, DATABASE_URL: db.url, DATA_DIR: dataDir.path });
  const secrets = sharedSecrets();

  const snapshot = async (pool: Pool) => {
    const merchants = await pool.query('SELECT * FROM merchants ORDER BY id');
    const keys = await pool.query('SELECT * FROM api_keys ORDER BY id');
    const members = await pool.query(
      'SELECT * FROM merchant_members ORDER BY merchant_id, user_id',
    );
    const payments = await pool.query('SELECT * FROM payments ORDER BY id');
    const jobs = await pool.query('SELECT * FROM jobs ORDER BY kind, reference');
    const subscriptions = await pool.query('SELECT * FROM subscriptions ORDER BY id');
    const invoices = await pool.query('SELECT * FROM invoices ORDER BY id');
    return {
      merchants: merchants.rows,
      keys: keys.rows,
      members: members.rows,
      payments: payments.rows,
      jobs: jobs.rows,
      subscriptions: subscriptions.rows,
      invoices: invoices.rows,
    };
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    service = startProcess({ name: 'embedded', entry: 'apps/embedded/src/main.ts', env: env() });
    baseUrl = (await service.waitForLine(/Xaalis is running at (\S+)/, 60_000))[1];
    flow = await driveIdentityFlow(baseUrl);
    // Payments too: one left open (its expiry job), one paid (no job left).
    for (const amount of [1_000, 2_000]) {
      const created = await fetch(`${baseUrl}/v1/payments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${flow.secretKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ amount }),
      }).then((response) => response.json() as Promise<{ id: string }>);
      if (amount === 2_000) {
        await fetch(`${baseUrl}/v1/test_helpers/payments/${created.id}/succeed`, {
          method: 'POST',
          headers: { authorization: `Bearer ${flow.secretKey}` },
        });
      }
    }
    // A subscription, its first invoice and its billing clock's job.
    const signIn = await fetch(`${baseUrl}/dashboard/v1/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: flow.owner.email, password: flow.owner.password }),
    });
    const cookie = signIn.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    const subscription = await fetch(
      `${baseUrl}/dashboard/v1/merchants/${flow.merchantId}/test/subscriptions`,
      {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', 'idempotency-key': 'replay-sub' },
        body: JSON.stringify({
          customer: { phone: '+221771234567', name: 'Awa Diop' },
          amount: 5_000,
          interval: 'month',
        }),
      },
    );
    expect(subscription.status).toBe(201);
    // The lists catch the read models up, so the snapshot below is taken on settled tables.
    for (const path of ['/v1/payments', '/v1/subscriptions']) {
      await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${flow.secretKey}` } });
    }
  });

  afterAll(async () => {
    await service?.stop();
    await killAllStarted();
    await db?.drop();
    dataDir.remove();
  });

  it('rebuilds every projection while the service keeps answering, to the same rows', async () => {
    const before = await snapshot(db.pool);
    expect(before.keys.length).toBeGreaterThanOrEqual(4);
    // The merchant's two, and the float the exchange's own account was funded with.
    expect(before.payments).toHaveLength(3);
    // The open payment's expiry and the subscription's billing clock.
    expect(before.jobs.map((job) => job.kind).sort()).toEqual(['billing.tick', 'payment.expire']);
    expect(before.subscriptions).toHaveLength(1);
    expect(before.invoices).toHaveLength(1);
    // Lose the read model: only the streams remain.
    await db.pool.query(
      'DELETE FROM api_keys; DELETE FROM merchant_members; DELETE FROM merchants; ' +
        'DELETE FROM jobs; DELETE FROM payments; DELETE FROM invoices; DELETE FROM subscriptions',
    );

    const replay = startProcess({
      name: 'replay',
      entry: 'tools/scripts/replay.ts',
      args: ['all'],
      env: env(),
    });
    const answers: number[] = [];
    while (!replay.hasExited) {
      const response = await fetch(`${baseUrl}/health`);
      answers.push(response.status);
    }
    const exit = await replay.exited;
    expect(exit.code).toBe(0);
    expect(answers.every((status) => status === 200)).toBe(true);
    const summary = replay.lines.find((line) => line.startsWith('Replayed '));
    expect(summary).toMatch(
      /^Replayed (\d+) events into 5 projection\(s\) in [\d.]+ s \(\d+ events\/s\)\.$/,
    );
    expect(Number(summary!.match(/^Replayed (\d+)/)![1])).toBeGreaterThan(before.keys.length);

    expect(await snapshot(db.pool)).toEqual(before);
    const account = await fetch(`${baseUrl}/v1/account`, {
      headers: { authorization: `Bearer ${flow.secretKey}` },
    });
    expect(account.status).toBe(200);
  });

  it('names the projections when asked for an unknown one', async () => {
    const replay = startProcess({
      name: 'replay',
      entry: 'tools/scripts/replay.ts',
      args: ['nope'],
      env: env(),
    });
    const exit = await replay.exited;
    expect(exit.code).toBe(1);
    expect(replay.lines.join('\n')).toContain(
      'Unknown projection nope (projections: identity-merchants, payments, payouts, billing, exchange)',
    );
  });
});
