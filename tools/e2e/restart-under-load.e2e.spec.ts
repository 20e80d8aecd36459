import { expectLedgerBalanced } from '@xaalis/ledger';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '@xaalis/testing';
import { tempDataDir } from './support/fixtures';
import { killAllStarted, sleep } from './support/processes';
import {
  caughtUp,
  demoKey,
  loadThenKill,
  startEmbedded,
  type Acknowledged,
} from './support/restart-under-load';

/**
 * Issue 16: the embedded service killed (-9) under write load, then started again on the same
 * data, loses nothing: every acknowledged payment is listed, every acknowledged success stays
 * succeeded, and the balance is the sum of the succeeded payments' nets, with a balanced ledger.
 * (How fast it catches up is `npm run bench:restart`'s figure, not this test's.) Before the fix,
 * the payments forwarder published its backlog at boot before the ledger and webhooks apps
 * listened, and the in-process bus dropped those events.
 */
describeWithPostgres('embedded service killed under load, then restarted', () => {
  const dataDir = tempDataDir('restart-under-load');
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await killAllStarted();
    await db?.drop();
    dataDir.remove();
  });

  it('keeps every acknowledged payment and success, and credits each success once', async () => {
    const env = { DATA_DIR: dataDir.path, DATABASE_URL: db.url };
    const first = await startEmbedded('first', env);
    const key = await demoKey(first);
    const acknowledged: Acknowledged = await loadThenKill(first, key, {
      clients: 16,
      loadMs: 6_000,
      atLeastSucceeded: 150,
    });
    expect(acknowledged.succeededNets.size).toBeGreaterThan(100);

    const second = await startEmbedded('after kill -9', env);
    let state = await caughtUp(second.http, key, acknowledged);
    for (let waited = 0; !state.done && waited < 60_000; waited += 250) {
      await sleep(250);
      state = await caughtUp(second.http, key, acknowledged);
    }

    expect(state).toMatchObject({ done: true, unlisted: 0, available: state.expected });
    const acknowledgedNets = [...acknowledged.succeededNets.values()].reduce((a, b) => a + b, 0);
    expect(state.available).toBeGreaterThanOrEqual(acknowledgedNets);
    await expectLedgerBalanced(db.pool);
    await second.run.stop();
  }, 180_000);
});
