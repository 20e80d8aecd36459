import { expectLedgerBalanced } from '@xaalis/ledger';
import { verifyWebhook } from '@xaalis/webhook-signature';
import { idempotencyKey } from './support/fixtures';
import type { HttpClient } from './support/http';
import type { InProcessService } from './support/in-process-service';
import { merchantFactory, type TestMerchant } from './support/merchant';
import {
  addDeveloper,
  agentPayout,
  agentWallet,
  expectSpentToday,
  getPayout,
  issueAgentKey,
  payoutTestHelper,
  walletPayoutPage,
  newAgentPayout,
  newWallet,
  payoutFeeOf,
  RECIPIENT,
  REFUSED_RECIPIENT,
  walletBody,
  type PayoutObject,
} from './support/payouts';
import {
  balanceOf,
  eventually,
  expectBalance,
  expectError,
  succeededPayment,
} from './support/payments';
import { startHttpsWebhookService, type HttpsWebhookService } from './support/webhook-receiver';

const SETTLE_MS = 500;
const FUNDED = 99_000; // a 100 000 XOF payment, less its 1 % fee
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * Spec 4.3, CONTRACT 5 and 6 in one process: agent wallets, agent keys and payouts over HTTP,
 * their refusals, their sandbox outcomes and test helpers, their webhooks. The service's clock is
 * fixed: a payout stays `processing` until a test moves the clock past SANDBOX_SETTLE_MS.
 */
describe('agent wallets and payouts over HTTP', () => {
  let webhooks: HttpsWebhookService;
  let service: InProcessService;
  const newMerchant = merchantFactory(() => service.http);
  const http = () => service.http;

  beforeAll(async () => {
    webhooks = await startHttpsWebhookService({ SANDBOX_SETTLE_MS: String(SETTLE_MS) });
    service = webhooks.service;
  });
  afterAll(async () => {
    try {
      if (service) await expectLedgerBalanced(service.db.pool);
    } finally {
      await webhooks?.close();
    }
  });

  /** A merchant whose test balance holds FUNDED, a wallet and an agent key of that wallet. */
  const fundedAgent = async (overrides: Record<string, unknown> = {}) => {
    const merchant = await newMerchant();
    await succeededPayment(http(), merchant.testKey, 100_000);
    await expectBalance(http(), merchant.testKey, { available: FUNDED, pending: 0 });
    const wallet = await newWallet(http(), merchant.testKey, overrides);
    const key = await issueAgentKey(http(), merchant.testKey, wallet.id);
    return { merchant, wallet, agentKey: key.secret_key as string, key };
  };

  /**
   * Once the sandbox has the payout (`processing`: its delay counts from then), moves the
   * service's clock past SANDBOX_SETTLE_MS unless it ended already; waits for it to end.
   */
  const settled = async (merchant: TestMerchant, id: string): Promise<PayoutObject> => {
    const status = async () => (await getPayout(http(), merchant.testKey, id)).status;
    if ((await eventually(status, (seen) => seen !== 'pending')) === 'processing') {
      service.clock.advance(SETTLE_MS);
    }
    const payout = await eventually(
      () => getPayout(http(), merchant.testKey, id),
      (seen) => seen.status !== 'processing',
    );
    expect(payout.status).toMatch(/^(succeeded|failed)$/);
    return payout;
  };

  it('a wallet: 201 active at policy_version 1, read and listed; dashboard create is owner only', async () => {
    const merchant = await newMerchant();
    const wallet = await newWallet(http(), merchant.testKey);
    expect(wallet).toEqual({
      id: expect.stringMatching(/^aw_\w{20,}$/),
      object: 'agent_wallet',
      livemode: false,
      ...walletBody(),
      status: 'active',
      policy_version: 1,
      created_at: expect.stringMatching(ISO),
      updated_at: wallet.created_at,
    });
    const read = await http().get(`/v1/agent-wallets/${wallet.id}`, { bearer: merchant.testKey });
    expect({ status: read.status, body: read.body }).toEqual({ status: 200, body: wallet });

    const developer = await addDeveloper(http(), merchant.owner, merchant.merchantId);
    const dashboardCreate = (browser: HttpClient) =>
      browser.post(`/dashboard/v1/merchants/${merchant.merchantId}/test/agent-wallets`, {
        idempotencyKey: idempotencyKey(),
        body: walletBody({ name: 'Dashboard wallet', provider: 'orange_money' }),
      });
    expectError(await dashboardCreate(developer), 403, 'forbidden');
    const byOwner = await dashboardCreate(merchant.owner);
    expect({ status: byOwner.status, body: byOwner.body }).toMatchObject({
      status: 201,
      body: {
        object: 'agent_wallet',
        name: 'Dashboard wallet',
        policy_version: 1,
        livemode: false,
      },
    });

    const listed = await http().get('/v1/agent-wallets', { bearer: merchant.testKey });
    expect(listed.body).toEqual({ object: 'list', data: [byOwner.body, wallet], has_more: false });
    // As GET shows it, field for field in the same order (the read model's jsonb sorts keys).
    expect(JSON.stringify(listed.body.data[1])).toBe(JSON.stringify(wallet));
    const live = await http().get('/v1/agent-wallets', { bearer: merchant.liveKey });
    expect(live.body).toEqual({ object: 'list', data: [], has_more: false });
  });

  it('an agent key: ak_test_ shown once, never listed; the agent reads its wallet, nothing else', async () => {
    const { merchant, wallet, agentKey, key } = await fundedAgent();
    expect(key).toEqual({
      id: expect.stringMatching(/^agk_\w{20,}$/),
      object: 'agent_key',
      agent_wallet_id: wallet.id,
      livemode: false,
      secret_key: expect.stringMatching(/^ak_test_\w+$/),
      created_at: expect.stringMatching(ISO),
      revoked_at: null,
    });
    const listed = await http().get(`/v1/agent-wallets/${wallet.id}/keys`, {
      bearer: merchant.testKey,
    });
    const { secret_key: _shownOnce, ...withoutSecret } = key;
    expect(listed.body).toEqual({ object: 'list', data: [withoutSecret], has_more: false });
    expect(listed.text).not.toContain(agentKey);

    expect(await agentWallet(http(), agentKey)).toEqual({
      ...wallet,
      spent_today: 0,
      remaining_today: wallet.max_daily_amount,
    });
    expectError(await http().get('/v1/balance', { bearer: agentKey }), 403, 'forbidden');
    expectError(
      await http().get('/v1/agent/wallet', { bearer: merchant.testKey }),
      403,
      'forbidden',
    );
  });

  it('a payout: 201 pending, fee rounded half up, amount + fee held; the sandbox makes it succeed', async () => {
    const { merchant, wallet, agentKey, key } = await fundedAgent();
    const amount = 12_350; // 1 % is 123.5: half up to 124
    const payout = await newAgentPayout(http(), agentKey, { amount, action_id: 'order-1' });
    expect(payout).toEqual({
      id: expect.stringMatching(/^po_\w{20,}$/),
      object: 'payout',
      agent_wallet_id: wallet.id,
      agent_key_id: key.id,
      policy_version: 1,
      livemode: false,
      amount,
      fee: 124,
      currency: 'XOF',
      provider: 'wave',
      status: 'pending',
      recipient: { phone: RECIPIENT, name: null },
      client_reference: 'order-1',
      failure_reason: null,
      created_at: expect.stringMatching(ISO),
      updated_at: payout.created_at,
    });
    expect(payoutFeeOf(amount)).toBe(124);
    // Held in `pending` while in flight (as refunds are), then paid out.
    await expectBalance(http(), merchant.testKey, {
      available: FUNDED - amount - 124,
      pending: amount + 124,
    });
    expect(await agentWallet(http(), agentKey)).toMatchObject({
      spent_today: amount,
      remaining_today: 50_000 - amount,
    });

    const succeeded = await settled(merchant, payout.id);
    expect(succeeded).toEqual({
      ...payout,
      status: 'succeeded',
      updated_at: expect.stringMatching(ISO),
    });
    await expectBalance(http(), merchant.testKey, { available: FUNDED - amount - 124, pending: 0 });
    expect((await agentWallet(http(), agentKey)).spent_today).toBe(amount);
  });

  it('to +221700000002: failed, recipient_refused; amount + fee back, the day no longer counts it', async () => {
    const { merchant, agentKey } = await fundedAgent();
    const payout = await newAgentPayout(http(), agentKey, {
      amount: 10_000,
      phone: REFUSED_RECIPIENT,
      action_id: 'refused-1',
    });
    await expectBalance(http(), merchant.testKey, { available: FUNDED - 10_100, pending: 10_100 });
    const failed = await settled(merchant, payout.id);
    expect(failed).toEqual({
      ...payout,
      status: 'failed',
      failure_reason: 'recipient_refused',
      updated_at: expect.stringMatching(ISO),
    });
    await expectBalance(http(), merchant.testKey, { available: FUNDED, pending: 0 });
    expect(await expectSpentToday(http(), agentKey, 0)).toMatchObject({ remaining_today: 50_000 });
  });

  it('every refusal is 402 with its code and rule, and changes nothing', async () => {
    const { merchant, wallet, agentKey } = await fundedAgent({ max_daily_amount: 30_000 });
    await newAgentPayout(http(), agentKey, { amount: 20_000, action_id: 'first' });
    const refusedWith = async (
      body: { amount: number; phone?: string; action_id: string },
      code: string,
      rule?: string,
    ) => {
      const [balance, before] = [
        await balanceOf(http(), merchant.testKey),
        await agentWallet(http(), agentKey),
      ];
      const refused = await agentPayout(http(), agentKey, body);
      expectError(refused, 402, code);
      if (rule) expect(refused.body.error.details).toMatchObject({ rule });
      expect(await balanceOf(http(), merchant.testKey)).toEqual(balance);
      expect(await agentWallet(http(), agentKey)).toEqual(before);
    };
    await refusedWith(
      { amount: 100, phone: '+221770000000', action_id: 'a' },
      'policy_violation',
      'recipient_not_allowed',
    );
    await refusedWith({ amount: 20_001, action_id: 'b' }, 'policy_violation', 'max_payout_amount');
    await refusedWith({ amount: 10_001, action_id: 'c' }, 'policy_violation', 'max_daily_amount');

    const patch = (status: string) =>
      http().patch(`/v1/agent-wallets/${wallet.id}`, {
        bearer: merchant.testKey,
        idempotencyKey: idempotencyKey(),
        body: { status },
      });
    const disabled = await patch('disabled');
    expect(disabled.body).toMatchObject({ status: 'disabled', policy_version: 2 });
    await refusedWith({ amount: 100, action_id: 'd' }, 'policy_violation', 'wallet_disabled');
    expect((await patch('active')).body).toMatchObject({ status: 'active', policy_version: 3 });
    const accepted = await newAgentPayout(http(), agentKey, { amount: 100, action_id: 'd' });
    expect(accepted.policy_version).toBe(3);

    // 99 000 less 20 000 and its 200 fee leaves 78 800: 78 100 and its 781 fee are 81 over it.
    const { merchant: spender, agentKey: bigSpender } = await fundedAgent({
      max_payout_amount: 100_000,
      max_daily_amount: null,
    });
    await newAgentPayout(http(), bigSpender, { amount: 20_000, action_id: 'spend' });
    const before = await agentWallet(http(), bigSpender);
    await expectBalance(http(), spender.testKey, { available: 78_800, pending: 20_200 });
    const refused = await agentPayout(http(), bigSpender, { amount: 78_100, action_id: 'over' });
    expectError(refused, 402, 'insufficient_funds');
    expect(await agentWallet(http(), bigSpender)).toEqual(before);
    expect(await balanceOf(http(), spender.testKey)).toEqual({
      available: 78_800,
      pending: 20_200,
    });
  });

  it("GET /v1/payouts/{id}: another merchant's payout is 404", async () => {
    const { merchant, agentKey } = await fundedAgent();
    const other = await newMerchant();
    const payout = await newAgentPayout(http(), agentKey, { amount: 1_000, action_id: 'mine' });
    expectError(
      await http().get(`/v1/payouts/${payout.id}`, { bearer: other.testKey }),
      404,
      'not_found',
    );
    expectError(
      await http().get(`/v1/payouts/${payout.id}`, { bearer: merchant.liveKey }),
      404,
      'not_found',
    );
  });

  it('the wallet payout list: newest first, limit and starting_after, client_reference filter', async () => {
    const { merchant, wallet, agentKey } = await fundedAgent();
    const made: PayoutObject[] = [];
    for (const id of ['list-a', 'list-b', 'list-c'])
      made.push(await newAgentPayout(http(), agentKey, { amount: 1_000, action_id: id }));
    const ids = (query: string) => walletPayoutPage(http(), merchant.testKey, wallet.id, query);
    const [a, b, c] = made.map((payout) => payout.id);
    expect(await ids('limit=2')).toEqual({ ids: [c, b], has_more: true });
    expect(await ids(`limit=2&starting_after=${b}`)).toEqual({ ids: [a], has_more: false });
    expect(await ids('client_reference=list-b')).toEqual({ ids: [b], has_more: false });
  });

  it('test helpers end a payout as the sandbox does, and both send webhooks carrying GET /v1/payouts/{id}', async () => {
    const { merchant, agentKey } = await fundedAgent();
    const hooks = await webhooks.receiver();
    const patched = await http().patch('/v1/account', {
      bearer: merchant.testKey,
      body: { webhook_url: hooks.url('/hooks') },
    });
    expect(patched.status).toBe(200);

    const byHelper = async (action: 'succeed' | 'fail', phone: string, id: string) => {
      const payout = await newAgentPayout(http(), agentKey, {
        amount: 1_000,
        phone,
        action_id: id,
      });
      const helper = (key: string) => payoutTestHelper(http(), key, payout.id, action);
      expectError(await helper(merchant.liveKey), 403, 'forbidden');
      const moved = await helper(merchant.testKey);
      expect(moved.status).toBe(200);
      expect(await getPayout(http(), merchant.testKey, payout.id)).toEqual(moved.body);
      return moved.body;
    };
    const helped = [
      await byHelper('succeed', RECIPIENT, 'h-ok'),
      await byHelper('fail', RECIPIENT, 'h-ko'),
    ];
    await expectBalance(http(), merchant.testKey, { available: FUNDED - 1_010, pending: 0 });
    const real = [
      await newAgentPayout(http(), agentKey, { amount: 1_000, action_id: 's-ok' }),
      await newAgentPayout(http(), agentKey, {
        amount: 1_000,
        phone: REFUSED_RECIPIENT,
        action_id: 's-ko',
      }),
    ];
    const ended = [await settled(merchant, real[0].id), await settled(merchant, real[1].id)];
    await expectBalance(http(), merchant.testKey, { available: FUNDED - 2 * 1_010, pending: 0 });
    await expectSpentToday(http(), agentKey, 2 * 1_000);
    // The same ends, whoever decided them.
    const shape = (p: PayoutObject) => [p.status, p.failure_reason, p.amount, p.fee];
    expect(helped.map(shape)).toEqual(ended.map(shape));

    await eventually(
      async () => hooks.requests.length,
      (count) => count >= 4,
    );
    const events = hooks.requests.map((request) =>
      verifyWebhook<PayoutObject>({
        rawBody: request.rawBody,
        header: request.headers['xaalis-signature'],
        secret: merchant.webhookSecret,
        now: service.clock.now(),
      }),
    );
    const byPayout = new Map(events.map((event) => [event.data.object.id, event]));
    for (const payout of [...helped, ...ended]) {
      const event = byPayout.get(payout.id);
      expect({ type: event?.type, livemode: event?.livemode, object: event?.data.object }).toEqual({
        type: payout.status === 'succeeded' ? 'payout.succeeded' : 'payout.failed',
        livemode: false,
        object: await getPayout(http(), merchant.testKey, payout.id),
      });
    }
    expect(events).toHaveLength(4);
  });

  it('a revoked agent key is refused (401) on its very next call', async () => {
    const { merchant, wallet, agentKey, key } = await fundedAgent();
    await agentWallet(http(), agentKey);
    const revoked = await http().delete(`/v1/agent-wallets/${wallet.id}/keys/${key.id}`, {
      bearer: merchant.testKey,
    });
    expect({ status: revoked.status, revoked_at: revoked.body.revoked_at }).toEqual({
      status: 200,
      revoked_at: expect.stringMatching(ISO),
    });
    expectError(
      await http().get('/v1/agent/wallet', { bearer: agentKey }),
      401,
      'authentication_required',
    );
    expectError(
      await agentPayout(http(), agentKey, { amount: 100, action_id: 'late' }),
      401,
      'authentication_required',
    );
  });
});
