import type { Pool } from 'pg';
import { randomToken } from '@xaalis/kernel';
import { rawInsert } from './baselines';
import { call, signUpMerchant, startEmbeddedStack } from './gateway';
import { httpLoad } from './http-load';
import { measureInterleaved, warm, type Subject } from './measure';
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

/**
 * Issue 19: accepted payouts per second on one hot wallet and spread over 100 wallets, with p50 and
 * p99, against the raw single-row INSERT+COMMIT of the same run. Target: the hot wallet ≥ 500
 * accepted/s and ≥ 0.3× the INSERT. Every answer must be a pending payout (a refusal fails the
 * line), and at the end the merchant's balance must be exactly what was paid out less, never below
 * zero, with the ledger summing to zero.
 */
export async function payoutPairs(
  pool: Pool,
  databaseUrl: string,
  settings: Settings,
  log: (line: string) => void,
): Promise<Judged[]> {
  log('booting the embedded stack for payouts');
  const stack = await startEmbeddedStack(databaseUrl);
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
    await expectNoOverdraft(pool, merchant.merchantId);
    return [
      { baseline: insert, subject: hot, target: { kind: 'ratio', min: 0.3 } },
      { baseline: insert, subject: hot, target: { kind: 'rate', min: 500, unit: 'payouts/s' } },
      { baseline: insert, subject: spread, target: { kind: 'none' } },
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
