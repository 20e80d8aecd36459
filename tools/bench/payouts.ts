import type { Pool } from 'pg';
import { FixedClock, randomToken } from '@xaalis/kernel';
import { rawInsert } from './baselines';
import { call, signUpMerchant, startEmbeddedStack } from './gateway';
import { httpLoad } from './http-load';
import {
  measureDrain,
  measureInterleaved,
  untilIdle,
  warm,
  type Measurement,
  type Subject,
} from './measure';
import type { Judged } from './report';

interface Settings {
  durationMs: number;
  rounds: number;
  concurrency: number;
}

/** What an agent pays out: small, to an allowed phone, a new `action_id` each time. */
const PAYOUT_BODY = { amount: 1_000, recipient: { phone: '+221771234567' }, action_id: 'x' };
/** One payment of the largest amount funds every payout of a run. */
const FUNDING = 100_000_000;
const SPREAD_WALLETS = 100;
/** A settlement slower than this is reported as it stands rather than waited for. */
const SETTLE_LIMIT_MS = 5 * 60_000;

/**
 * Issue 19: accepted payouts per second on one hot wallet and spread over 100 wallets, with p50 and
 * p99, against the raw single-row INSERT+COMMIT of the same run. Target: the hot wallet ≥ 500
 * accepted/s and ≥ 0.3× the INSERT. Every answer must be a pending payout (a refusal fails the
 * line), and at the end the merchant's balance must be exactly what was paid out less, never below
 * zero, with the ledger summing to zero.
 *
 * The service's clock is held still while payouts are accepted. On the real clock the sandbox
 * settles each payout `SANDBOX_SETTLE_MS` (2 s) after it started, so a round's settlements landed
 * on whichever round ran two seconds later, the INSERT baseline's or the other line's, and a
 * line's figure said which line came before it (in one run the hot wallet measured 518/s and the
 * line after it 160/s). Settling is measured on its own instead: every accepted payout due at once when the
 * clock moves past the delay, shown beside the hot wallet's acceptance rate.
 */
export async function payoutPairs(
  pool: Pool,
  databaseUrl: string,
  settings: Settings,
  log: (line: string) => void,
): Promise<Judged[]> {
  log('booting the embedded stack for payouts, on a bench-driven clock');
  const clock = new FixedClock(new Date());
  const stack = await startEmbeddedStack(databaseUrl, {}, clock);
  try {
    const { durationMs, concurrency } = settings;
    const merchant = await signUpMerchant(stack.url);
    await fund(stack.url, merchant.secretKey);
    const hotKeys = await agentKeys(stack.url, merchant.secretKey, 1);
    const spreadKeys = await agentKeys(stack.url, merchant.secretKey, SPREAD_WALLETS);
    log(`agent payouts at ${concurrency} concurrent clients, one wallet and ${SPREAD_WALLETS}`);
    const [insert, hot, spread] = await measureInterleaved(
      [
        rawInsert(pool, durationMs),
        warm(agentPayouts(stack.url, 'one hot wallet', hotKeys, settings)),
        warm(agentPayouts(stack.url, `${SPREAD_WALLETS} wallets`, spreadKeys, settings)),
      ],
      settings.rounds,
    );
    const settled = await settleAll(pool, merchant.merchantId, clock, stack.config, log);
    await expectNoOverdraft(pool, merchant.merchantId);
    return [
      { baseline: insert, subject: hot, target: { kind: 'ratio', min: 0.3 } },
      { baseline: insert, subject: hot, target: { kind: 'rate', min: 500, unit: 'payouts/s' } },
      { baseline: insert, subject: spread, target: { kind: 'none' } },
      { baseline: hot, subject: settled, target: { kind: 'none' } },
    ];
  } finally {
    await stack.close();
  }
}

/** A payment of `FUNDING` made to succeed, and its net seen in `available`. */
async function fund(baseUrl: string, secretKey: string): Promise<void> {
  const payment = (await call(baseUrl, 'POST', '/v1/payments', {
    bearer: secretKey,
    body: { amount: FUNDING, provider: 'wave' },
  }).then((response) => response.json())) as { id: string };
  await call(baseUrl, 'POST', `/v1/test_helpers/payments/${payment.id}/succeed`, {
    bearer: secretKey,
  });
  for (let waited = 0; waited < 10_000; waited += 50) {
    const balance = (await call(baseUrl, 'GET', '/v1/balance', { bearer: secretKey }).then(
      (response) => response.json(),
    )) as { available: number };
    if (balance.available > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('The funding payment never reached the balance');
}

/** `count` wallets, each with one agent key: the keys' secrets. */
async function agentKeys(baseUrl: string, secretKey: string, count: number): Promise<string[]> {
  const secrets: string[] = [];
  for (let n = 0; n < count; n += 1) {
    const wallet = (await call(baseUrl, 'POST', '/v1/agent-wallets', {
      bearer: secretKey,
      idempotencyKey: randomToken(16),
      body: {
        name: `Bench agent ${n}`,
        provider: 'wave',
        max_payout_amount: PAYOUT_BODY.amount,
        max_daily_amount: FUNDING,
        allowed_recipient_phones: [PAYOUT_BODY.recipient.phone],
      },
    }).then((response) => response.json())) as { id: string };
    const key = (await call(baseUrl, 'POST', `/v1/agent-wallets/${wallet.id}/keys`, {
      bearer: secretKey,
      idempotencyKey: randomToken(16),
    }).then((response) => response.json())) as { secret_key: string };
    secrets.push(key.secret_key);
  }
  return secrets;
}

function agentPayouts(baseUrl: string, name: string, keys: string[], settings: Settings): Subject {
  return httpLoad(
    `POST /v1/agent/payouts (${name})`,
    {
      method: 'POST',
      url: `${baseUrl}/v1/agent/payouts`,
      headerSets: keys.map((key) => ({ authorization: `Bearer ${key}` })),
      body: JSON.stringify(PAYOUT_BODY),
      freshIdempotencyKey: true,
      freshBodyField: 'action_id',
      expectFields: { object: 'payout', status: 'pending' },
    },
    { durationMs: settings.durationMs, concurrency: settings.concurrency },
  );
}

/**
 * Moves the clock past the sandbox's delay and waits until every payout the lines accepted has
 * succeeded and its money has left the merchant's balance (no hold left `held`): the service's
 * scheduler running `payout.send` for each, its read model and its `payout.succeeded` following.
 */
async function settleAll(
  pool: Pool,
  merchantId: string,
  clock: FixedClock,
  config: { sandboxSettleMs: number },
  log: (line: string) => void,
): Promise<Measurement> {
  // Every payout sent and waiting for the sandbox (`processing`), as seen by the read model.
  let due = await heldPayouts(pool, merchantId);
  for (let waited = 0; (await processingPayouts(pool, merchantId)) < due; waited += 20) {
    if (waited > SETTLE_LIMIT_MS) throw new Error('The accepted payouts were never all sent');
    await new Promise((resolve) => setTimeout(resolve, 20));
    due = await heldPayouts(pool, merchantId);
  }
  await untilIdle();
  log(`${due.toLocaleString('en-US')} payouts settling at once`);
  const { measurement, left } = await measureDrain(
    `payouts settled by the sandbox (${due.toLocaleString('en-US')} due at once)`,
    due,
    () => clock.advance(config.sandboxSettleMs + 1_000),
    async () => {
      const held = await heldPayouts(pool, merchantId);
      return { left: held, running: held };
    },
    SETTLE_LIMIT_MS,
  );
  if (left > 0) log(`${left} payouts not settled after ${measurement.seconds.toFixed(1)} s`);
  return measurement;
}

const processingPayouts = async (pool: Pool, merchantId: string): Promise<number> =>
  (
    await pool.query<{ processing: number }>(
      `SELECT count(*)::int AS processing FROM payouts WHERE merchant_id = $1 AND status = 'processing'`,
      [merchantId],
    )
  ).rows[0]!.processing;

const heldPayouts = async (pool: Pool, merchantId: string): Promise<number> =>
  (
    await pool.query<{ held: number }>(
      `SELECT count(*)::int AS held FROM ledger_holds h JOIN ledger_transactions t ON t.txn_id = h.ref
        WHERE t.merchant_id = $1 AND h.status = 'held'`,
      [merchantId],
    )
  ).rows[0]!.held;

/**
 * The ledger after the run: available never below zero (the database's CHECK would have refused
 * the hold), what left it is what the payouts took, and every transaction's entries sum to zero.
 */
async function expectNoOverdraft(pool: Pool, merchantId: string): Promise<void> {
  const { rows } = await pool.query<{ account: string; balance: string }>(
    `SELECT account, balance::text FROM ledger_balances WHERE merchant_id = $1 AND mode = 'test'`,
    [merchantId],
  );
  const balance = new Map(rows.map((row) => [row.account, Number(row.balance)]));
  const available = balance.get('merchant_available') ?? 0;
  const total = [...balance.values()].reduce((sum, value) => sum + value, 0);
  if (available < 0 || total !== 0) {
    throw new Error(`Ledger after the payouts: ${JSON.stringify(Object.fromEntries(balance))}`);
  }
  const { rows: unbalanced } = await pool.query(
    `SELECT txn_id FROM ledger_entries WHERE merchant_id = $1 GROUP BY txn_id HAVING sum(amount) <> 0 LIMIT 1`,
    [merchantId],
  );
  if (unbalanced.length > 0)
    throw new Error(`Unbalanced ledger transaction ${unbalanced[0].txn_id}`);
}
