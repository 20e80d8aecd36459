import { ClientKafka } from '@nestjs/microservices';
import { BUS_CLIENT } from '@xaalis/config';
import { randomToken } from '@xaalis/kernel';
import { describeWithKafka, describeWithPostgres } from '@xaalis/testing';
import {
  eventually,
  jsonClient,
  startAppsOverKafka,
  type AppsOverKafka,
} from './testing/apps-over-kafka';

/**
 * Issue 19, item 7: agent wallets, agent keys and payouts when the gateway, payments and payouts
 * are three apps over Kafka (the kcat mock cluster), each with its own infrastructure as three
 * processes have. A payment's success funds the balance (payments → payouts' ledger over Kafka);
 * the wallet, its key and the agent's payout go through the gateway's HTTP; the sandbox ends the
 * payout on the payouts app's own clock.
 */

// Long enough for the reads between acceptance and the end to see the payout in flight.
const SETTLE_MS = 1_000;

describeWithPostgres('agent payouts, distributed', () => {
  describeWithKafka('gateway, payments and payouts as three apps over Kafka', () => {
    let apps: AppsOverKafka;

    beforeAll(async () => {
      apps = await startAppsOverKafka({
        apps: ['gateway', 'payments', 'payouts'],
        prefix: 'int_payouts_kafka',
        env: { SANDBOX_SETTLE_MS: String(SETTLE_MS) },
      });
    });

    afterAll(() => apps?.close());

    it('the gateway asks over Kafka: no in-process route to payments or payouts', () => {
      expect(apps.app('gateway').get(BUS_CLIENT)).toBeInstanceOf(ClientKafka);
    });

    it('a funded merchant: wallet, agent key and agent payout over HTTP; the sandbox pays it out', async () => {
      const call = jsonClient(apps.url);
      const user = {
        email: `payouts-${randomToken(8)}@int.xaalis.test`,
        password: randomToken(16),
      };
      const signUp = await call('POST', '/dashboard/v1/auth/sign-up', {
        body: { ...user, name: 'Payouts Owner' },
      });
      expect(signUp.status).toBe(201);
      const merchant = await call('POST', '/dashboard/v1/merchants', {
        body: { name: 'Kafka Shop' },
      });
      expect(merchant.status).toBe(201);
      const apiKey = await call(
        'POST',
        `/dashboard/v1/merchants/${merchant.body.id}/test/api-keys`,
        {
          idempotent: true,
        },
      );
      expect(apiKey.status).toBe(201);
      const key: string = apiKey.body.secret_key;
      const balance = async () => (await call('GET', '/v1/balance', { bearer: key })).body;

      // Funded by the payments app: payment.succeeded reaches the payouts app's ledger over Kafka.
      const payment = await call('POST', '/v1/payments', {
        bearer: key,
        idempotent: true,
        body: { amount: 50_000 },
      });
      expect(payment.status).toBe(201);
      const paid = await call('POST', `/v1/test_helpers/payments/${payment.body.id}/succeed`, {
        bearer: key,
      });
      expect(paid.body.status).toBe('succeeded');
      const funded = await eventually(balance, (seen) => seen.available === 49_500);
      expect(funded).toMatchObject({ available: 49_500, pending: 0 });

      const wallet = await call('POST', '/v1/agent-wallets', {
        bearer: key,
        idempotent: true,
        body: {
          name: 'Kafka agent',
          provider: 'orange_money',
          max_payout_amount: 10_000,
          max_daily_amount: 20_000,
          allowed_recipient_phones: ['+221771234567'],
        },
      });
      expect(wallet.body).toMatchObject({
        object: 'agent_wallet',
        status: 'active',
        policy_version: 1,
      });
      const agentKey = await call('POST', `/v1/agent-wallets/${wallet.body.id}/keys`, {
        bearer: key,
        idempotent: true,
      });
      expect(agentKey.body.secret_key).toMatch(/^ak_test_/);
      const agent: string = agentKey.body.secret_key;

      const payout = await call('POST', '/v1/agent/payouts', {
        bearer: agent,
        idempotent: true,
        body: { amount: 7_777, recipient: { phone: '+221771234567' }, action_id: 'kafka-1' },
      });
      expect({ status: payout.status, body: payout.body }).toMatchObject({
        status: 201,
        body: { status: 'pending', amount: 7_777, fee: 78, provider: 'orange_money' },
      });
      expect(await balance()).toMatchObject({ available: 49_500 - 7_855, pending: 7_855 });
      const spending = await call('GET', '/v1/agent/wallet', { bearer: agent });
      expect(spending.body).toMatchObject({ spent_today: 7_777, remaining_today: 20_000 - 7_777 });

      const ended = await eventually(
        async () => (await call('GET', `/v1/payouts/${payout.body.id}`, { bearer: key })).body,
        (seen) => seen.status === 'succeeded',
      );
      expect(ended).toEqual({
        ...payout.body,
        status: 'succeeded',
        updated_at: expect.any(String),
      });
      expect(await balance()).toMatchObject({ available: 49_500 - 7_855, pending: 0 });
      const listed = await call('GET', `/v1/agent-wallets/${wallet.body.id}/payouts`, {
        bearer: key,
      });
      expect(listed.body).toEqual({ object: 'list', data: [ended], has_more: false });
    });
  });
});
