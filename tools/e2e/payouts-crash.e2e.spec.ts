import type { Pool } from 'pg';
import type { FailpointName } from '@xaalis/failpoints';
import { newId, successorId } from '@xaalis/kernel';
import { expectLedgerBalanced, Ledger } from '@xaalis/ledger';
import type { FakeWavePayout } from '@xaalis/provider-http/testing';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '@xaalis/testing';
import { startCrashableService, type RunningService } from './support/crashable-service';
import { idempotencyKey, sharedSecrets, tempDataDir } from './support/fixtures';
import { HttpClient, type HttpResult } from './support/http';
import { startLiveFakes, type LiveFakes } from './support/live-providers';
import { newTestMerchant, type TestMerchant } from './support/merchant';
import { ledgerTransactionIds } from './support/payment-records';
import { eventually, expectBalance, sleep } from './support/payments';
import { killAllStarted } from './support/processes';

/** The shortest the config allows: a job leased by a process that died runs again after it. */
const JOB_LEASE_MS = 15_000;
/** A request that died is retried, and its unclaimed hold given back, after this. */
const IDEMPOTENCY_LEASE_MS = 1_000;
/** Long enough for the local fake, short enough that the timeout case is quick. */
const PROVIDER_TIMEOUT_MS = 2_000;
/** A crashed job's lease, the next poll and the provider calls, with room to spare. */
const RECOVERY_MS = JOB_LEASE_MS + 30_000;

const FUNDS = 100_000;
const AMOUNT = 10_000;
const RECIPIENT = { phone: '+221771234567', name: 'Awa Diop' };

/** A merchant's live agent: a Wave wallet funded with FUNDS and one live agent key. */
interface LiveAgent {
  merchant: TestMerchant;
  walletId: string;
  agentKey: string;
}

interface PayoutHold {
  ref: string;
  amount: number;
  fee: number;
  status: 'held' | 'settled' | 'released';
}

/** The ledger holds of a merchant's live payouts, by ref. */
async function payoutHoldsOf(pool: Pool, merchantId: string): Promise<PayoutHold[]> {
  const { rows } = await pool.query<PayoutHold>(
    `SELECT h.ref, h.amount::int AS amount, h.fee::int AS fee, h.status
       FROM ledger_holds h JOIN ledger_transactions t ON t.txn_id = h.ref
      WHERE t.merchant_id = $1 AND t.mode = 'live' AND h.ref LIKE 'payout:%'
      ORDER BY h.ref`,
    [merchantId],
  );
  return rows;
}

/**
 * Issue 19 item 7: a kill -9 in the middle of a live payout, against the Wave fake, never pays
 * twice nor loses the money held. Each case starts the service (`npm start`'s entry, the payouts
 * app inside it) with one failpoint armed to crash, makes a live payout, sees the process die
 * (SIGKILL), restarts it without failpoints on the same database, and counts what Wave was asked
 * to transfer and what the ledger moved. The next case stops the restarted service first: two
 * services at once would share the payout jobs, and the armed one might never reach its point.
 */
describeWithPostgres('payouts crashed at each step, live mode against the Wave fake', () => {
  const secrets = sharedSecrets();
  const dataDir = tempDataDir('payouts-crash');
  let db: TestDatabase;
  let fakes: LiveFakes;
  let current: RunningService | undefined;

  const start = (failpoint?: FailpointName): Promise<RunningService> =>
    startCrashableService(
      {
        ...secrets,
        ...fakes.env,
        DATABASE_URL: db.url,
        DATA_DIR: dataDir.path,
        IDEMPOTENCY_LEASE_MS: String(IDEMPOTENCY_LEASE_MS),
        JOB_LEASE_MS: String(JOB_LEASE_MS),
        PROVIDER_TIMEOUT_MS: String(PROVIDER_TIMEOUT_MS),
        // The status polls below would trip the per-IP and per-key limits.
        IP_RATE_LIMIT_BURST: '10000',
        IP_RATE_LIMIT_PER_SECOND: '10000',
        RATE_LIMIT_BURST: '10000',
        RATE_LIMIT_PER_SECOND: '10000',
      },
      failpoint,
    );

  beforeAll(async () => {
    db = await createTestDatabase();
    fakes = await startLiveFakes();
  }, 60_000);

  afterAll(async () => {
    try {
      if (db) await expectLedgerBalanced(db.pool);
    } finally {
      await killAllStarted();
      await fakes?.close();
      await db?.drop();
      dataDir.remove();
    }
  });

  const wave = () => fakes.wave;
  /** What Wave actually transferred for these payout ids (a repeated key counts once). */
  const transfersFor = (...payoutIds: string[]) =>
    wave().payouts.filter((payout) => payoutIds.includes(payout.client_reference ?? ''));

  /** A fresh merchant, funded in live mode straight in the ledger, with a Wave wallet and key. */
  async function liveAgent(http: HttpClient): Promise<LiveAgent> {
    const merchant = await newTestMerchant(http);
    await new Ledger(db.pool).creditPayment({
      paymentId: newId('payment'),
      merchantId: merchant.merchantId,
      mode: 'live',
      amount: FUNDS,
      fee: 0,
    });
    const wallet = await http.post('/v1/agent-wallets', {
      bearer: merchant.liveKey,
      idempotencyKey: idempotencyKey(),
      body: {
        name: 'Crash test wallet',
        provider: 'wave',
        max_payout_amount: 50_000,
        allowed_recipient_phones: [RECIPIENT.phone],
      },
    });
    expect({ status: wallet.status, livemode: wallet.body.livemode }).toEqual({
      status: 201,
      livemode: true,
    });
    const key = await http.post(`/v1/agent-wallets/${wallet.body.id}/keys`, {
      bearer: merchant.liveKey,
      idempotencyKey: idempotencyKey(),
    });
    expect(key.status).toBe(201);
    expect(key.body.secret_key).toMatch(/^ak_live_/);
    return { merchant, walletId: wallet.body.id, agentKey: key.body.secret_key };
  }

  const requestPayout = (agent: LiveAgent, key: string, actionId: string) => (http: HttpClient) =>
    http.post('/v1/agent/payouts', {
      bearer: agent.agentKey,
      idempotencyKey: key,
      body: { amount: AMOUNT, recipient: RECIPIENT, action_id: actionId },
    });

  /** The ids of the wallet's payouts, newest first. */
  async function walletPayoutIds(agent: LiveAgent): Promise<string[]> {
    const listed = await current!.http.get(
      `/v1/agent-wallets/${agent.walletId}/payouts?limit=100`,
      {
        bearer: agent.merchant.liveKey,
      },
    );
    expect(listed.status).toBe(200);
    return listed.body.data.map((payout: { id: string }) => payout.id);
  }

  const getPayout = async (agent: LiveAgent, payoutId: string) => {
    const got = await current!.http.get(`/v1/payouts/${payoutId}`, {
      bearer: agent.merchant.liveKey,
    });
    expect(got.status).toBe(200);
    return got.body;
  };

  /** Polls the payout until it ends; returns every status seen on the way, in order. */
  async function followToEnd(agent: LiveAgent, payoutId: string): Promise<string[]> {
    const seen: string[] = [];
    await eventually(
      async () => {
        const { status } = await getPayout(agent, payoutId);
        if (seen.at(-1) !== status) seen.push(status);
        return status as string;
      },
      (status) => !['pending', 'processing'].includes(status),
      RECOVERY_MS,
    );
    return seen;
  }

  /** `payout.succeeded` events for this payout, once recorded (they follow on the forwarder). */
  async function succeededEvents(agent: LiveAgent, payoutId: string): Promise<unknown[]> {
    const list = async () => {
      const listed = await current!.http.get('/v1/events?type=payout.succeeded&limit=100', {
        bearer: agent.merchant.liveKey,
      });
      expect(listed.status).toBe(200);
      return listed.body.data.filter(
        (event: { data: { object: { id: string } } }) => event.data.object.id === payoutId,
      );
    };
    await eventually(list, (events) => events.length > 0);
    // A duplicate would follow the first within a forwarder round or two.
    await sleep(1_000);
    return list();
  }

  /**
   * The end every case must reach: the payout succeeded (and never failed), Wave made exactly
   * one transfer for it, amount + fee left `available` once and were settled, `pending` is back
   * to 0, and `payout.succeeded` was recorded once.
   */
  async function expectPaidOnce(agent: LiveAgent, payoutId: string): Promise<void> {
    const seen = await followToEnd(agent, payoutId);
    expect(seen.at(-1)).toBe('succeeded');
    expect(seen).not.toContain('failed');
    const payout = await getPayout(agent, payoutId);
    expect(payout).toMatchObject({
      id: payoutId,
      livemode: true,
      provider: 'wave',
      amount: AMOUNT,
      status: 'succeeded',
      failure_reason: null,
    });
    const fee: number = payout.fee;
    expect(fee).toBeGreaterThan(0);

    const [transfer, ...more] = transfersFor(payoutId);
    expect(more).toEqual([]);
    expect(transfer).toMatchObject({
      receive_amount: String(AMOUNT),
      mobile: RECIPIENT.phone,
      status: 'succeeded',
    });

    await expectBalance(current!.http, agent.merchant.liveKey, {
      available: FUNDS - AMOUNT - fee,
      pending: 0,
    });
    const holds = await payoutHoldsOf(db.pool, agent.merchant.merchantId);
    expect(holds.filter((hold) => hold.status !== 'released')).toEqual([
      { ref: `payout:${payoutId}`, amount: AMOUNT, fee, status: 'settled' },
    ]);
    const txns = await ledgerTransactionIds(db.pool, agent.merchant.merchantId, 'live');
    expect(txns.filter((txn) => txn.includes(payoutId))).toEqual([
      `payout:${payoutId}`,
      `payout:${payoutId}:settled`,
    ]);
    expect(await succeededEvents(agent, payoutId)).toHaveLength(1);
  }

  /**
   * Stops the service running (gracefully: nothing is in flight between cases), starts one armed
   * to crash at `failpoint`, sets up a live agent on it and sends `send`; waits for the SIGKILL
   * and restarts the service clean on the same database. What the request got, if anything, is
   * returned: the process may die before or after answering.
   */
  async function crashThenRestart(
    failpoint: FailpointName,
    send: (agent: LiveAgent) => (http: HttpClient) => Promise<HttpResult>,
  ): Promise<{ agent: LiveAgent; first: HttpResult | string; transfersAtCrash: FakeWavePayout[] }> {
    await current?.run.stop();
    current = undefined;
    const armed = await start(failpoint);
    try {
      const agent = await liveAgent(armed.http);
      const first = await send(agent)(armed.http).then(
        (answer) => answer,
        (error: unknown) => String(error),
      );
      expect(await armed.run.exited).toEqual({ code: null, signal: 'SIGKILL' });
      const transfersAtCrash = structuredClone(wave().payouts);
      current = await start();
      return { agent, first, transfersAtCrash };
    } finally {
      if (!armed.run.hasExited) await armed.run.kill9Group();
    }
  }

  describe.each<FailpointName>([
    'payouts.send.before_provider_call',
    'payouts.send.after_provider_call',
  ])('crashed at %s', (failpoint) => {
    it('the restarted job asks Wave before sending again: succeeded, one transfer, settled once', async () => {
      const actionId = `crash-${failpoint}`;
      const { agent, first, transfersAtCrash } = await crashThenRestart(failpoint, (agent) =>
        requestPayout(agent, idempotencyKey(), actionId),
      );
      // The request was answered (or not) before the job that crashed ran.
      if (typeof first !== 'string') expect(first.status).toBe(201);

      const [payoutId, ...others] = await walletPayoutIds(agent);
      expect(others).toEqual([]);
      // Before the call the crashed run had sent nothing; after it, the transfer was made and
      // only Wave's answer was lost with the process.
      const sentBeforeCrash = transfersAtCrash.filter(
        (transfer) => transfer.client_reference === payoutId,
      );
      expect(sentBeforeCrash).toHaveLength(
        failpoint === 'payouts.send.after_provider_call' ? 1 : 0,
      );
      await expectPaidOnce(agent, payoutId!);
    }, 240_000);
  });

  describe('crashed at payouts.accept.after_hold (funds held, the wallet not asked yet)', () => {
    it('the held funds go back; the same request then makes the payout once, under the next id', async () => {
      const key = idempotencyKey();
      const actionId = 'crash-after-hold';
      const send = (agent: LiveAgent) => requestPayout(agent, key, actionId);
      const { agent, first } = await crashThenRestart('payouts.accept.after_hold', send);
      expect(first).toMatch(/fetch failed/);

      // `payout.claim_hold` gives the crashed run's funds back and closes its payout id, once a
      // live request would long have been accepted.
      const [given, ...more] = await eventually(
        () => payoutHoldsOf(db.pool, agent.merchant.merchantId),
        (holds) => holds.length === 1 && holds[0]!.status === 'released',
        IDEMPOTENCY_LEASE_MS * 20,
      );
      expect({ status: given?.status, more }).toEqual({ status: 'released', more: [] });
      const crashedId = given!.ref.slice('payout:'.length);

      // The same request (same key, so the same reserved id) is made, not refused.
      const same = await eventually(
        () => send(agent)(current!.http),
        (answer) => answer.body?.error?.code !== 'idempotency_conflict',
        IDEMPOTENCY_LEASE_MS * 20,
      );
      expect(same.status).toBe(201);
      expect(same.body).toMatchObject({
        object: 'payout',
        id: successorId(crashedId),
        amount: AMOUNT,
        livemode: true,
      });
      const replay = await send(agent)(current!.http);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      const renewed = await requestPayout(agent, idempotencyKey(), actionId)(current!.http);
      expect({ status: renewed.status, id: renewed.body.id }).toEqual({
        status: 201,
        id: same.body.id,
      });
      expect(await walletPayoutIds(agent)).toEqual([same.body.id]);

      await expectPaidOnce(agent, same.body.id);
      expect(
        (await payoutHoldsOf(db.pool, agent.merchant.merchantId)).map(({ ref, status }) => ({
          ref,
          status,
        })),
      ).toEqual(
        [
          { ref: `payout:${crashedId}`, status: 'released' },
          { ref: `payout:${same.body.id}`, status: 'settled' },
        ].sort((a, b) => a.ref.localeCompare(b.ref)),
      );
      expect(transfersFor(same.body.id, crashedId)).toHaveLength(1);
    }, 240_000);
  });

  describe('crashed at payouts.accept.after_wallet_append (accepted with its payout stream, the answer lost)', () => {
    it('the same request answers the same payout id, which then succeeds with one transfer', async () => {
      const key = idempotencyKey();
      const actionId = 'crash-after-wallet-append';
      const send = (agent: LiveAgent) => requestPayout(agent, key, actionId);
      const { agent, first } = await crashThenRestart('payouts.accept.after_wallet_append', send);
      expect(first).toMatch(/fetch failed/);

      const retried = await eventually(
        () => send(agent)(current!.http),
        (answer) => answer.body?.error?.code !== 'idempotency_conflict',
        IDEMPOTENCY_LEASE_MS * 20,
      );
      expect(retried.status).toBe(201);
      expect(retried.body).toMatchObject({ object: 'payout', amount: AMOUNT, livemode: true });
      const payoutId: string = retried.body.id;
      const replay = await send(agent)(current!.http);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.text).toBe(retried.text);
      expect(await walletPayoutIds(agent)).toEqual([payoutId]);

      await expectPaidOnce(agent, payoutId);
      expect(await payoutHoldsOf(db.pool, agent.merchant.merchantId)).toHaveLength(1);
    }, 240_000);
  });

  describe('Wave times out on the send, then its lookup finds the payout made', () => {
    it('stays processing (never failed), then succeeds with one transfer', async () => {
      current ??= await start();
      const agent = await liveAgent(current.http);
      wave().scriptPayouts({ kind: 'timeout' });

      const created = await requestPayout(agent, idempotencyKey(), 'wave-timeout')(current.http);
      expect(created.status).toBe(201);
      const payoutId: string = created.body.id;

      const seen = await followToEnd(agent, payoutId);
      expect(seen).toContain('processing');
      expect(seen.at(-1)).toBe('succeeded');
      const asked = wave().requests.filter(
        (request) =>
          request.method === 'POST' &&
          request.path === '/v1/payout' &&
          (request.body as { client_reference?: string }).client_reference === payoutId,
      );
      // Sent once, timed out; the retry looked it up instead of sending again.
      expect(asked).toHaveLength(1);
      await expectPaidOnce(agent, payoutId);
    }, 120_000);
  });
});
