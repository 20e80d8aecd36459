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
    // The refund and the payouts end once the sandbox's settlement time passes on the clock.
    await eventually(
      async () => {
        service.clock.advance(1_000);
        return hooks.requests.length;
      },
      (count) => count === 6,
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

  it('names one schema per event type: its `type` the only value, `data.object` the payment or payout', () => {
    const { schemas } = document.components;
    for (const type of Object.keys(DOCUMENTED_WEBHOOK_EVENTS)) {
      const data = type.startsWith('payout.') ? 'PayoutEventData' : 'PaymentEventData';
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
  });

  it('validates each delivered body against the schema of its type', async () => {
    expect(delivered.map((event) => event.type).sort()).toEqual(
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
