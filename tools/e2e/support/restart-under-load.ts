import { randomUUID } from 'node:crypto';
import { serviceEnv } from './fixtures';
import { HttpClient } from './http';
import { startProcess, type ManagedProcess } from './processes';

const RUNNING = /^Xaalis is running at (http:\/\/localhost:\d+) /;
const DEMO_KEY = /^Test secret key \(shown once\): (sk_test_\w+)$/;

export interface EmbeddedRun {
  run: ManagedProcess;
  http: HttpClient;
  /** When it said it was running (ms since the epoch). */
  readyAt: number;
}

/** `npm start`'s entry on `dataDir` (and `DATABASE_URL`, when given), rate limits lifted. */
export async function startEmbedded(
  label: string,
  env: { DATA_DIR: string; DATABASE_URL?: string },
): Promise<EmbeddedRun> {
  const run = startProcess({
    name: `embedded (${label})`,
    entry: 'apps/embedded/src/main.ts',
    env: {
      ...serviceEnv(),
      DATABASE_URL: undefined,
      ...env,
      RATE_LIMIT_PER_SECOND: '100000',
      RATE_LIMIT_BURST: '100000',
    },
  });
  const [, url] = await run.waitForLine(RUNNING, 120_000);
  return { run, http: new HttpClient(url!), readyAt: Date.now() };
}

/** The demo merchant's test key, printed by the first start on fresh data. */
export async function demoKey(first: EmbeddedRun): Promise<string> {
  const [, key] = await first.run.waitForLine(DEMO_KEY, 10_000);
  return key!;
}

/** What the service answered before it was killed. */
export interface Acknowledged {
  /** Payments answered 201. */
  created: Set<string>;
  /** Payments answered 200 to the test helper's succeed, with their `net`. */
  succeededNets: Map<string, number>;
}

/**
 * `clients` loops create payments (a fresh idempotency key each) and make four in five of them
 * succeed; after `loadMs` the service is killed (-9, alone: its Postgres, if embedded, lives on
 * until the restart finds it) while they are still sending. With `atLeastSucceeded`, the load goes
 * on past `loadMs` (up to five times as long) until that many successes were answered: a slow
 * machine's first seconds after a start (a cold JIT) may not make the load asked for.
 */
export async function loadThenKill(
  target: EmbeddedRun,
  key: string,
  options: { clients: number; loadMs: number; atLeastSucceeded?: number },
): Promise<Acknowledged> {
  const acknowledged: Acknowledged = { created: new Set(), succeededNets: new Map() };
  let killed = false;
  const client = async () => {
    while (!killed) {
      try {
        const created = await target.http.post('/v1/payments', {
          bearer: key,
          idempotencyKey: randomUUID(),
          body: { amount: 1_000 + Math.floor(Math.random() * 9_000) },
        });
        if (created.status !== 201) continue;
        acknowledged.created.add(created.body.id);
        if (Math.random() < 0.2) continue;
        const succeeded = await target.http.post(
          `/v1/test_helpers/payments/${created.body.id}/succeed`,
          { bearer: key },
        );
        if (succeeded.status === 200) {
          acknowledged.succeededNets.set(created.body.id, succeeded.body.net);
        }
      } catch {
        // The connection died with the process.
      }
    }
  };
  const load = Array.from({ length: options.clients }, client);
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  await wait(options.loadMs);
  for (
    let waited = options.loadMs;
    acknowledged.succeededNets.size < (options.atLeastSucceeded ?? 0) &&
    waited < options.loadMs * 5;
    waited += 100
  ) {
    await wait(100);
  }
  await target.run.kill9();
  killed = true;
  await Promise.all(load);
  return acknowledged;
}

export interface ListedPayment {
  id: string;
  status: string;
  net: number;
}

/** Every payment of the key's merchant and mode, through the list's pages. */
export async function allPayments(http: HttpClient, key: string): Promise<ListedPayment[]> {
  const payments: ListedPayment[] = [];
  for (let after = ''; ;) {
    const page = await http.get(`/v1/payments?limit=100${after && `&starting_after=${after}`}`, {
      bearer: key,
    });
    payments.push(...(page.body.data as ListedPayment[]));
    if (!page.body.has_more) return payments;
    after = page.body.data.at(-1).id;
  }
}

/**
 * Caught up: every acknowledged payment is listed, every acknowledged success is `succeeded`, and
 * `available` is the sum of the succeeded payments' nets (the ledger agrees with the read model,
 * which also holds successes the killed process made but could not answer). The balance is asked
 * first: while it is short of the acknowledged successes, the list (many pages) is not read.
 */
export async function caughtUp(
  http: HttpClient,
  key: string,
  acknowledged: Acknowledged,
): Promise<{ done: boolean; available: number; expected: number; unlisted: number }> {
  const acknowledgedNets = [...acknowledged.succeededNets.values()].reduce((a, b) => a + b, 0);
  const balance = await http.get('/v1/balance', { bearer: key });
  const available: number = balance.body.available;
  if (available < acknowledgedNets) {
    return { done: false, available, expected: acknowledgedNets, unlisted: Number.NaN };
  }
  const payments = await allPayments(http, key);
  const byId = new Map(payments.map((payment) => [payment.id, payment]));
  const expected = payments
    .filter((payment) => payment.status === 'succeeded')
    .reduce((sum, payment) => sum + payment.net, 0);
  const unlisted = [...acknowledged.created].filter((id) => !byId.has(id)).length;
  const successesKept = [...acknowledged.succeededNets.keys()].every(
    (id) => byId.get(id)?.status === 'succeeded',
  );
  return {
    done: unlisted === 0 && successesKept && available === expected,
    available,
    expected,
    unlisted,
  };
}
