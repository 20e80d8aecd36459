import { createTestDatabase, describeWithPostgres, type TestDatabase } from '@xaalis/testing';
import { expectLedgerBalanced } from '@xaalis/ledger';
import {
  exchangeReaching,
  newExchange,
  payExchange,
  payoutsOf,
  type ExchangeObject,
} from './support/exchange';
import type { FailpointName } from '@xaalis/failpoints';
import { startCrashableService } from './support/crashable-service';
import { sharedSecrets, tempDataDir } from './support/fixtures';
import { eventually } from './support/payments';
import { killAllStarted } from './support/processes';

/** The shortest the config allows: the job of a process that died runs again after it. */
const JOB_LEASE_MS = 15_000;

/**
 * Issue 21: a restart between the payment's success and the payout. `npm start`'s entry runs with
 * `exchange.advance.before_payout` armed to crash: the customer pays, the exchange records it,
 * and the process is killed (SIGKILL) just before the payout is requested. Restarted clean on the
 * same database, the job runs again after its lease: one payout, the exchange completed, the
 * ledger balanced.
 */
describeWithPostgres('an exchange whose process dies between the payment and the payout', () => {
  const secrets = sharedSecrets();
  const dataDir = tempDataDir('exchange-crash');
  let db: TestDatabase;

  const start = (crashAt?: FailpointName) =>
    startCrashableService(
      {
        ...secrets,
        DATABASE_URL: db.url,
        DATA_DIR: dataDir.path,
        JOB_LEASE_MS: String(JOB_LEASE_MS),
        SANDBOX_SETTLE_MS: '200',
      },
      crashAt,
    );

  beforeAll(async () => {
    db = await createTestDatabase();
  }, 60_000);

  afterAll(async () => {
    try {
      if (db) await expectLedgerBalanced(db.pool);
    } finally {
      await killAllStarted();
      await db?.drop();
      dataDir.remove();
    }
  });

  it('pays out once after the restart, and the exchange completes', async () => {
    const armed = await start('exchange.advance.before_payout');
    const exchange: ExchangeObject = await newExchange(armed.http, { send_amount: 30_000 });
    await payExchange(armed.http, armed.http.baseUrl, exchange);
    expect(await armed.run.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(await payoutsOf(db.pool, exchange.id)).toEqual([]);

    const restarted = await start();
    const completed = await exchangeReaching(
      restarted.http,
      exchange,
      'completed',
      () => undefined,
      JOB_LEASE_MS + 30_000,
    );
    // The restarted service took another port: its links name it.
    const { checkout_url: before, ...rest } = exchange;
    expect(completed).toEqual({
      ...rest,
      status: 'completed',
      checkout_url: before.replace(armed.http.baseUrl, restarted.http.baseUrl),
    });
    // The payouts read model follows its stream a moment later.
    const payouts = await eventually(
      () => payoutsOf(db.pool, exchange.id),
      (rows) => rows[0]?.status === 'succeeded',
    );
    expect(payouts).toEqual([
      { id: expect.stringMatching(/^po_/), amount: 29_100, status: 'succeeded' },
    ]);
    await restarted.run.stop();
  }, 180_000);
});
