import { performance } from 'node:perf_hooks';
import type { Pool } from 'pg';
import { createPool } from '@xaalis/database';
import { FixedClock, randomToken } from '@xaalis/kernel';
import { createTestDatabase } from '@xaalis/testing';
import { createBaselineTable, rawInsert } from './baselines';
import {
  call,
  SERVICE_POOL_SIZE,
  signUpMerchant,
  startEmbeddedStack,
  type BenchMerchant,
} from './gateway';
import { measureInterleaved, untilIdle, type Measurement } from './measure';
import type { Judged } from './report';

/** Issue 20: subscriptions whose next period starts at the same moment. */
export const DUE_SUBSCRIPTIONS = 10_000;
const DAY_MS = 86_400_000;
/** Creates in flight while the subscriptions are set up (not measured). */
const CREATE_CONCURRENCY = 16;
/** A drain slower than this is reported as it stands rather than waited for. */
const DRAIN_LIMIT_MS = 10 * 60_000;
/** Where the webhook deliveries go: nothing listens, and the held clock never retries them. */
const ENDPOINT_URL = 'https://localhost:9/hooks';

/**
 * Daily, 3 days to pay: at the next period's start the only billing event due is the new
 * invoice (the first reminder comes a day later).
 */
const SUBSCRIPTION_BODY = {
  customer: { phone: '+221771234567', name: 'Awa Diop' },
  amount: 5_000,
  interval: 'day',
  days_until_due: 3,
  description: 'Abonnement fibre',
};

interface Settings {
  durationMs: number;
  rounds: number;
}

/**
 * The billing clock over `DUE_SUBSCRIPTIONS` subscriptions due at one moment: all are created on
 * a held clock (one anchor), the read model brings each one's `billing.tick` job, then the clock
 * moves a day and the service's own scheduler opens every next invoice. Two figures: invoices
 * created per second (until the last one is in the `invoices` read model), judged ≥ 1,000/s and
 * shown as a ratio to the raw INSERT of the same run; and the time until the last
 * `invoice.created` is in the webhooks' delivery table (an endpoint takes every event).
 */
export async function billingPairs(
  settings: Settings,
  log: (line: string) => void,
): Promise<Judged[]> {
  // A database of its own: the clock moves a day, and the other lines' open payments would fall
  // due (their expiries) together with the subscriptions.
  const db = await createTestDatabase();
  const pool = createPool(db.url, {
    applicationName: 'xaalis-bench-billing',
    max: SERVICE_POOL_SIZE,
  });
  try {
    await createBaselineTable(pool);
    return await billingClock(pool, db.url, settings, log);
  } finally {
    await pool.end();
    await db.drop();
  }
}

async function billingClock(
  pool: Pool,
  databaseUrl: string,
  settings: Settings,
  log: (line: string) => void,
): Promise<Judged[]> {
  log('booting the embedded stack on a bench-driven clock for the billing clock');
  const clock = new FixedClock(new Date());
  const stack = await startEmbeddedStack(
    databaseUrl,
    { WEBHOOK_ALLOWED_HOSTS: 'localhost' },
    clock,
  );
  try {
    const merchant = await signUpMerchant(stack.url);
    await call(stack.url, 'PATCH', '/v1/account', {
      bearer: merchant.secretKey,
      body: { webhook_url: ENDPOINT_URL },
    });
    log(`creating ${DUE_SUBSCRIPTIONS.toLocaleString('en-US')} daily subscriptions on one anchor`);
    await createSubscriptions(stack.url, merchant);
    // A list brings the read model, and so every subscription's billing job, up to date.
    await call(stack.url, 'GET', '/v1/subscriptions?limit=1', { bearer: merchant.secretKey });
    await untilCount(pool, DELIVERIES_SQL, DUE_SUBSCRIPTIONS, DRAIN_LIMIT_MS);
    await untilIdle();
    const [insert] = await measureInterleaved(
      [rawInsert(pool, settings.durationMs)],
      settings.rounds,
    );

    log(`${DUE_SUBSCRIPTIONS.toLocaleString('en-US')} next periods starting at once`);
    const cpu = process.cpuUsage();
    const start = performance.now();
    clock.advance(DAY_MS);
    const invoiced = await untilCount(pool, SECOND_INVOICES_SQL, DUE_SUBSCRIPTIONS, DRAIN_LIMIT_MS);
    const invoicedSeconds = (performance.now() - start) / 1000;
    const { user, system } = process.cpuUsage(cpu);
    const delivered = await untilCount(
      pool,
      DELIVERIES_SQL,
      2 * DUE_SUBSCRIPTIONS,
      DRAIN_LIMIT_MS - invoicedSeconds * 1000,
    );
    const deliveredSeconds = (performance.now() - start) / 1000;
    log(
      `last invoice.created in the delivery table ${deliveredSeconds.toFixed(1)} s after the ` +
        `periods started (${delivered - DUE_SUBSCRIPTIONS} of ${DUE_SUBSCRIPTIONS} new)`,
    );
    const invoices: Measurement = {
      name: `billing clock: invoices created (${DUE_SUBSCRIPTIONS.toLocaleString('en-US')} due at once)`,
      rate: invoiced / invoicedSeconds,
      p50Ms: 0,
      p99Ms: 0,
      operations: invoiced,
      seconds: invoicedSeconds,
      cpuMsPerOp: (user + system) / 1000 / Math.max(1, invoiced),
    };
    // p99 is when the last one came: the time this line is about.
    const deliveries: Measurement = {
      name: 'billing clock: invoice.created into the delivery table (p99: the last)',
      rate: (delivered - DUE_SUBSCRIPTIONS) / deliveredSeconds,
      p50Ms: 0,
      p99Ms: deliveredSeconds * 1000,
      operations: delivered - DUE_SUBSCRIPTIONS,
      seconds: deliveredSeconds,
      cpuMsPerOp: 0,
    };
    return [
      {
        baseline: insert!,
        subject: invoices,
        target: { kind: 'rate', min: 1_000, unit: 'invoices/s' },
      },
      { baseline: insert!, subject: deliveries, target: { kind: 'none' } },
    ];
  } finally {
    await stack.close();
  }
}

/** Invoices of the second period in the read model. */
const SECOND_INVOICES_SQL = `SELECT count(*)::int AS n FROM invoices WHERE period_index = 1`;
/** Deliveries of `invoice.created` events. */
const DELIVERIES_SQL = `
  SELECT count(*)::int AS n
    FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
   WHERE e.type = 'invoice.created'`;

async function createSubscriptions(baseUrl: string, merchant: BenchMerchant): Promise<void> {
  const path = `/dashboard/v1/merchants/${merchant.merchantId}/test/subscriptions`;
  const prefix = randomToken(8);
  let next = 0;
  const worker = async () => {
    while (next < DUE_SUBSCRIPTIONS) {
      const n = next++;
      await call(baseUrl, 'POST', path, {
        cookie: merchant.cookie,
        idempotencyKey: `${prefix}-${n}`,
        body: SUBSCRIPTION_BODY,
      });
    }
  };
  await Promise.all(Array.from({ length: CREATE_CONCURRENCY }, worker));
}

/** Polls `sql` (one `n` column) until it reaches `count` or the time runs out; the last count. */
async function untilCount(
  pool: Pool,
  sql: string,
  count: number,
  limitMs: number,
): Promise<number> {
  const deadline = performance.now() + Math.max(0, limitMs);
  for (;;) {
    const { rows } = await pool.query<{ n: number }>(sql);
    const n = rows[0]!.n;
    if (n >= count || performance.now() > deadline) return n;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
