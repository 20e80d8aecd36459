import { ClientKafka } from '@nestjs/microservices';
import { BUS_CLIENT } from '@xaalis/config';
import { describeWithKafka, describeWithPostgres } from '@xaalis/testing';
import {
  eventually,
  jsonClient,
  startAppsOverKafka,
  type AppsOverKafka,
} from './testing/apps-over-kafka';

/**
 * CONTRACT 8 across processes: the exchange app talks to payments and payouts over Kafka only.
 * An exchange paid through the public pay step and the sandbox reaches `completed` once payouts
 * has paid `receive_amount` out from the service's own account, which the exchange app opened
 * and funded on its first start; the ledger balances at the end (`close`).
 */
describeWithPostgres('the public exchange, distributed', () => {
  describeWithKafka('gateway, payments, payouts, webhooks and exchange over Kafka', () => {
    let apps: AppsOverKafka;

    beforeAll(async () => {
      apps = await startAppsOverKafka({
        apps: ['gateway', 'payments', 'payouts', 'webhooks', 'exchange'],
        prefix: 'int_exchange_kafka',
        env: { SANDBOX_SETTLE_MS: '100' },
      });
    });

    afterAll(() => apps?.close());

    it('the exchange app asks over Kafka: no in-process route between apps', () => {
      expect(apps.app('exchange').get(BUS_CLIENT)).toBeInstanceOf(ClientKafka);
    });

    it('quoted, created, paid: the payout goes out and the exchange completes', async () => {
      const call = jsonClient(apps.url);
      const quote = await call('POST', '/v1/public/exchange-quotes', {
        body: { from: 'wave', to: 'orange_money', send_amount: 50_000, phone: '+221771234567' },
      });
      expect(quote.status).toBe(201);
      expect(quote.body).toMatchObject({ fee: 1_500, receive_amount: 48_500 });
      const created = await call('POST', '/v1/public/exchanges', {
        idempotent: true,
        body: { quote: quote.body.quote, otp: '123456' },
      });
      expect(created.status).toBe(201);
      const exchange = created.body;
      expect(exchange.status).toBe('awaiting_payment');

      const paymentId = new URL(exchange.checkout_url).pathname.split('/').pop();
      const cs = encodeURIComponent(exchange.cs);
      const paid = await call('POST', `/v1/public/payments/${paymentId}/pay?cs=${cs}`, {
        body: { provider: 'wave', phone: '+221761234567' },
      });
      expect(paid.status).toBe(200);
      const approved = await fetch(`${apps.url}/sandbox/wave/${paymentId}/approve?cs=${cs}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        redirect: 'manual',
      });
      expect(approved.status).toBeLessThan(400);

      const follow = () => call('GET', `/v1/public/exchanges/${exchange.id}?cs=${cs}`);
      const completed = await eventually(follow, (answer) => answer.body.status === 'completed');
      expect(completed.body).toEqual({ ...exchange, status: 'completed' });
    });
  });
});
