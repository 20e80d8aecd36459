import { readFileSync } from 'node:fs';
import { DOCUMENTED_WEBHOOK_EVENTS, webhookEventSchemaName } from '@xaalis/contracts';
import type { HttpsReceiver } from '@xaalis/webhook-sender';
import { verifyWebhook } from '@xaalis/webhook-signature';
import { DOCUMENT_FILE } from '../openapi/artifacts';
import { TrafficChecker } from '../openapi/traffic';
import type { InProcessService } from './support/in-process-service';
import { merchantFactory } from './support/merchant';
import {
  balanceOf,
  createRefund,
  eventually,
  newPayment,
  succeededPayment,
  testHelper,
} from './support/payments';
import { issueAgentKey, newAgentPayout, newWallet, REFUSED_RECIPIENT } from './support/payouts';
import { startHttpsWebhookService, type HttpsWebhookService } from './support/webhook-receiver';

interface Event {
  id: string;
  type: string;
  data: { object: { id: string } };
}

/**
 * The payloads merchants receive are in the OpenAPI document: one schema per event type in
 * `components.schemas`, and real deliveries of each type validate against the schema of their
 * type, as strictly as the e2e traffic (no field the document does not name).
 */
describe('webhook event payloads in the OpenAPI document', () => {
  let webhooks: HttpsWebhookService;
  let service: InProcessService;
  let hooks: HttpsReceiver;
  const delivered: Event[] = [];
  const newMerchant = merchantFactory(() => service.http);
  const document = JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8')) as {
    components: { schemas: Record<string, { properties: Record<string, unknown> }> };
  };

  beforeAll(async () => {
    webhooks = await startHttpsWebhookService({ SANDBOX_SETTLE_MS: '1000' });
    service = webhooks.service;
    hooks = await webhooks.receiver();

    const merchant = await newMerchant();
    const key = merchant.testKey;
    const patched = await service.http.patch('/v1/account', {
      bearer: key,
      body: { webhook_url: hooks.url('/hooks') },
    });
    expect(patched.status).toBe(200);

    const refunded = await succeededPayment(service.http, key, 5_000);
    await testHelper(service.http, key, (await newPayment(service.http, key)).id, 'fail');
    await testHelper(service.http, key, (await newPayment(service.http, key)).id, 'expire');
    // Part of it, once its credit is in `available` (the fee is not given back).
    await eventually(
      () => balanceOf(service.http, key),
      (balance) => balance.available > 0,
    );
    const refund = await createRefund(service.http, key, { payment: refunded.id, amount: 1_000 });
    expect(refund.status).toBe(201);
    // An agent's payouts: one the sandbox sends, one it refuses.
    const wallet = await newWallet(service.http, key);
    const agentKey = (await issueAgentKey(service.http, key, wallet.id)).secret_key as string;
    await newAgentPayout(service.http, agentKey, { amount: 500, action_id: 'sent' });
    await newAgentPayout(service.http, agentKey, {
      amount: 500,
      phone: REFUSED_RECIPIENT,
      action_id: 'refused',
    });
    // Billing: a 2-cycle subscription paid to `completed` (invoice.created and invoice.paid
    // twice, subscription.completed), one left unpaid past due, then canceled (invoice.created,
    // invoice.overdue, subscription.past_due, subscription.canceled).
    const subscriptions = `/dashboard/v1/merchants/${merchant.merchantId}/test/subscriptions`;
    const newSubscription = async (key: string) => {
      const created = await merchant.owner.post(subscriptions, {
        idempotencyKey: key,
        body: {
          customer: { phone: '+221771234567', name: 'Awa Diop' },
          amount: 5_000,
          interval: 'month',
          billing_cycles: 2,
        },
      });
      expect(created.status).toBe(201);
      return created.body as { id: string; latest_invoice: { id: string } };
    };
    const advance = async (id: string, advanceKey: string) => {
      const advanced = await service.http.post(`/v1/subscriptions/${id}/test_advance`, {
        bearer: key,
        idempotencyKey: advanceKey,
      });
      expect(advanced.status).toBe(200);
      return advanced.body as { status: string; latest_invoice: { id: string; status: string } };
    };
    const payInvoice = async (invoiceId: string) => {
      // The hosted invoice page's "Payer" makes the invoice's payment; the sandbox then pays it.
      await service.http.post(`/invoices/${invoiceId}/pay`);
      const invoice = await service.http.get(`/v1/invoices/${invoiceId}`, { bearer: key });
      await testHelper(service.http, key, invoice.body.payment as string, 'succeed');
      await eventually(
        () => service.http.get(`/v1/invoices/${invoiceId}`, { bearer: key }),
        (answer) => answer.body.status === 'paid',
      );
    };
    const paid = await newSubscription('paid');
    await payInvoice(paid.latest_invoice.id);
    // Reminders and the first invoice's due date pass, then the second period starts.
    let latest = await advance(paid.id, 'paid-1');
    while (latest.latest_invoice.id === paid.latest_invoice.id) {
      latest = await advance(paid.id, `paid-${Math.random()}`);
    }
    await payInvoice(latest.latest_invoice.id);
    const unpaid = await newSubscription('unpaid');
    while ((await advance(unpaid.id, `unpaid-${Math.random()}`)).status !== 'past_due');
    const canceled = await service.http.post(`/v1/subscriptions/${unpaid.id}/cancel`, {
      bearer: key,
      idempotencyKey: 'cancel-unpaid',
      body: { at_period_end: false },
    });
    expect(canceled.body.status).toBe('canceled');
    // The refund and the payouts end once the sandbox's settlement time passes on the clock.
    // Nine of billing's, and the payment.succeeded of each of the two paid invoices.
    const billingEvents = 11;
    await eventually(
      async () => {
        service.clock.advance(1_000);
        return hooks.requests.length;
      },
      (count) => count === 6 + billingEvents,
    );
    for (const received of hooks.requests) {
      delivered.push(
        verifyWebhook<Event>({
          rawBody: received.rawBody,
          header: received.headers['xaalis-signature'],
          secret: merchant.webhookSecret,
          now: service.clock.now(),
        }),
      );
    }
  });
  afterAll(() => webhooks?.close());

  it('names one schema per event type: its `type` the only value, `data.object` its object', () => {
    const { schemas } = document.components;
    const objects: Record<string, string> = {
      payment: 'PaymentEventData',
      payout: 'PayoutEventData',
      invoice: 'InvoiceEventData',
      subscription: 'SubscriptionEventData',
    };
    for (const type of Object.keys(DOCUMENTED_WEBHOOK_EVENTS)) {
      const data = objects[type.split('.')[0]!];
      expect({ type, properties: schemas[webhookEventSchemaName(type)]?.properties }).toEqual({
        type,
        properties: {
          id: expect.objectContaining({ type: 'string' }),
          type: { type: 'string', enum: [type] },
          livemode: expect.objectContaining({ type: 'boolean' }),
          created_at: { type: 'string', format: 'date-time' },
          data: { $ref: `#/components/schemas/${data}` },
        },
      });
    }
    expect(schemas.PaymentEventData!.properties).toEqual({
      object: { $ref: '#/components/schemas/PaymentReply' },
    });
    expect(schemas.PayoutEventData!.properties).toEqual({
      object: { $ref: '#/components/schemas/PayoutReply' },
    });
    expect(schemas.InvoiceEventData!.properties).toEqual({
      object: { $ref: '#/components/schemas/InvoiceReply' },
    });
    expect(schemas.SubscriptionEventData!.properties).toEqual({
      object: { $ref: '#/components/schemas/SubscriptionReply' },
    });
  });

  it('validates each delivered body against the schema of its type', async () => {
    expect([...new Set(delivered.map((event) => event.type))].sort()).toEqual(
      Object.keys(DOCUMENTED_WEBHOOK_EVENTS).sort(),
    );
    // `GET /v1/events/{id}` answers one of the event schemas, told apart by `type` (each allows
    // only its own): a delivered body that is a valid answer matches the schema of its type.
    const checker = await TrafficChecker.load();
    const asAnswers = (events: unknown[]) =>
      events.map((body) => ({
        method: 'GET',
        url: `/v1/events/${(body as Event).id}`,
        status: 200,
        contentType: 'application/json',
        body,
      }));
    expect(checker.violations(asAnswers(delivered))).toEqual([]);

    const [event] = delivered;
    const renamed = { ...event!, type: 'payment.captured' };
    const grown = { ...event!, data: { object: { ...event!.data.object, extra: 1 } } };
    for (const wrong of [renamed, grown]) {
      expect(checker.violations(asAnswers([wrong]))).not.toEqual([]);
    }
  });
});
