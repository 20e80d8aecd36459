import { ClientKafka } from '@nestjs/microservices';
import { BUS_CLIENT } from '@xaalis/config';
import { randomToken } from '@xaalis/kernel';
import { describeWithKafka, describeWithPostgres } from '@xaalis/testing';
import {
  eventually,
  jsonClient,
  startAppsOverKafka,
  type AppsOverKafka,
  type Json,
} from './testing/apps-over-kafka';

/**
 * CONTRACT 7 across processes: the gateway, payments, billing, payouts and webhooks as five apps
 * over Kafka (the kcat mock cluster), each with its own infrastructure as five processes have.
 * A subscription created from the dashboard opens its invoice, whose `invoice.created` reaches
 * the webhooks app; a test advance answers once its events are in `GET /v1/events` (billing asks
 * the webhooks app `webhooks.event.get` over Kafka); the hosted invoice page starts the invoice's
 * payment in the payments app, whose success pays the invoice (billing) and credits the balance
 * (payouts).
 */

const AMOUNT = 15_000;
/** The test helper's success is a mock payment: 1 % fee. */
const NET = AMOUNT - 150;

describeWithPostgres('subscriptions, distributed', () => {
  describeWithKafka(
    'gateway, payments, billing, payouts and webhooks as five apps over Kafka',
    () => {
      let apps: AppsOverKafka;

      beforeAll(async () => {
        apps = await startAppsOverKafka({
          apps: ['gateway', 'payments', 'billing', 'payouts', 'webhooks'],
          prefix: 'int_billing_kafka',
        });
      });

      afterAll(() => apps?.close());

      it('the gateway and billing ask over Kafka: no in-process route between apps', () => {
        expect(apps.app('gateway').get(BUS_CLIENT)).toBeInstanceOf(ClientKafka);
        expect(apps.app('billing').get(BUS_CLIENT)).toBeInstanceOf(ClientKafka);
      });

      it('created from the dashboard, advanced, paid on its hosted page: the invoice paid and the balance credited', async () => {
        const call = jsonClient(apps.url);
        const signUp = await call('POST', '/dashboard/v1/auth/sign-up', {
          body: {
            email: `billing-${randomToken(8)}@int.xaalis.test`,
            password: randomToken(16),
            name: 'Billing Owner',
          },
        });
        expect(signUp.status).toBe(201);
        const merchant = await call('POST', '/dashboard/v1/merchants', {
          body: { name: 'Fibre Kafka' },
        });
        expect(merchant.status).toBe(201);
        const merchantId: string = merchant.body.id;
        const apiKey = await call('POST', `/dashboard/v1/merchants/${merchantId}/test/api-keys`, {
          idempotent: true,
        });
        expect(apiKey.status).toBe(201);
        const key: string = apiKey.body.secret_key;
        const events = async (type: string) =>
          (await call('GET', `/v1/events?type=${type}&limit=100`, { bearer: key })).body
            .data as Json[];
        const getInvoice = async (id: string) =>
          (await call('GET', `/v1/invoices/${id}`, { bearer: key })).body;

        const created = await call(
          'POST',
          `/dashboard/v1/merchants/${merchantId}/test/subscriptions`,
          {
            idempotent: true,
            body: {
              customer: { phone: '+221771234567', name: 'Awa Diop' },
              amount: AMOUNT,
              interval: 'month',
            },
          },
        );
        expect({ status: created.status, body: created.body }).toMatchObject({
          status: 201,
          body: {
            object: 'subscription',
            livemode: false,
            status: 'active',
            latest_invoice: { status: 'open', amount: AMOUNT, payment: null },
          },
        });
        const subscriptionId: string = created.body.id;
        const invoice = created.body.latest_invoice;
        expect(invoice.hosted_invoice_url).toBe(`${apps.url}/invoices/${invoice.id}/pay`);

        // Billing's forwarder → Kafka → the webhooks app's events.
        const opened = await eventually(
          () => events('invoice.created'),
          (seen) => seen.length > 0,
        );
        expect(opened.map((event) => event.data.object.id)).toEqual([invoice.id]);

        // The reminder a day before due_at (no webhook event), then due_at: overdue and past_due,
        // in GET /v1/events by the time the advance answers.
        const advance = (idempotencyKey: string) =>
          call('POST', `/v1/subscriptions/${subscriptionId}/test_advance`, {
            bearer: key,
            idempotencyKey,
          });
        const reminded = await advance('advance-1');
        expect(reminded.status).toBe(200);
        expect(reminded.body.latest_invoice).toMatchObject({ reminders_sent: 1, status: 'open' });
        const pastDue = await advance('advance-2');
        expect({ status: pastDue.status, body: pastDue.body }).toMatchObject({
          status: 200,
          body: { status: 'past_due', latest_invoice: { reminders_sent: 2, status: 'open' } },
        });
        expect((await events('invoice.overdue')).map((event) => event.data.object.id)).toEqual([
          invoice.id,
        ]);
        expect((await events('subscription.past_due')).map((event) => event.data.object)).toEqual([
          expect.objectContaining({ id: subscriptionId, status: 'past_due' }),
        ]);
        // The same key advances nothing more.
        const again = await advance('advance-2');
        expect(again.body.latest_invoice.reminders_sent).toBe(2);

        // "Payer" on the hosted page: billing starts the invoice's payment in the payments app.
        const pay = await call('POST', `/invoices/${invoice.id}/pay`);
        expect(pay.status).toBe(303);
        const location = pay.headers.get('location') ?? '';
        const paymentId = /\/checkout\/(pay_[0-9A-Za-z]+)/.exec(location)?.[1];
        expect({ location, paymentId }).toEqual({ location, paymentId: expect.any(String) });
        expect(await getInvoice(invoice.id)).toMatchObject({ status: 'open', payment: paymentId });
        const payment = await call('GET', `/v1/payments/${paymentId}`, { bearer: key });
        expect(payment.body).toMatchObject({ amount: AMOUNT, status: 'requires_payment_method' });

        const succeeded = await call('POST', `/v1/test_helpers/payments/${paymentId}/succeed`, {
          bearer: key,
        });
        expect({ status: succeeded.status, payment: succeeded.body.status }).toEqual({
          status: 200,
          payment: 'succeeded',
        });

        // payment.succeeded → billing (invoice paid, subscription active again) and payouts (ledger).
        const paid = await eventually(
          () => getInvoice(invoice.id),
          (seen) => seen.status === 'paid',
        );
        expect(paid).toEqual({
          ...invoice,
          status: 'paid',
          payment: paymentId,
          paid_at: expect.any(String),
          reminders_sent: 2,
        });
        const subscription = await call('GET', `/v1/subscriptions/${subscriptionId}`, {
          bearer: key,
        });
        expect(subscription.body).toMatchObject({ status: 'active', cycles_paid: 1 });
        const balance = await eventually(
          async () => (await call('GET', '/v1/balance', { bearer: key })).body,
          (seen) => seen.available === NET,
        );
        expect(balance).toMatchObject({ available: NET, pending: 0 });
        const invoicePaid = await eventually(
          () => events('invoice.paid'),
          (seen) => seen.length > 0,
        );
        expect(invoicePaid.map((event) => event.data.object)).toEqual([
          expect.objectContaining({ id: invoice.id, status: 'paid', payment: paymentId }),
        ]);
      });
    },
  );
});
