import { Module, type INestApplicationContext, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { lastValueFrom } from 'rxjs';
import { BUS_CLIENT } from '@xaalis/config';
import { PAYOUTS_BALANCE_GET, request, topicOf, type BalanceRequest } from '@xaalis/contracts';
import { DomainError } from '@xaalis/kernel';
import { describeWithKafka, startKafkaMock, type KafkaMock } from '@xaalis/testing';
import { BusModule } from '../bus.module';
import { busServerStrategy, type BusClient, type BusOptions } from '../bus-client';
import { Inbox, newIntegrationEvent, startFixtureApp } from '../testing/fixture-apps';

// The jest config's per-project testTimeout does not reach the tests (jest 30 reads the global
// one), and a mock cluster's group joins alone take 3 s or more.
jest.setTimeout(30_000);

const MERCHANT = 'mer_01JF0000000000000000000001';

@Module({})
class NoHandlersModule {}

describeWithKafka('bus over Kafka (mock cluster)', () => {
  let kafka: KafkaMock;
  let apps: INestMicroservice[];
  let gateway: INestApplicationContext;
  let client: BusClient;
  const inboxes = { payouts: new Inbox(), webhooks: new Inbox(), billing: new Inbox() };

  beforeAll(async () => {
    kafka = await startKafkaMock();
    // Each consumer group's first join takes 3 s on the mock cluster: join them all at once.
    const options: BusOptions = { kafkaBrokers: kafka.brokers, kafkaMaxWaitMs: 20 };
    const [payouts, webhooks, billing, context] = await Promise.all([
      startFixtureApp('payouts', inboxes.payouts, options),
      startFixtureApp('webhooks', inboxes.webhooks, options),
      startFixtureApp('billing', inboxes.billing, options),
      NestFactory.createApplicationContext(BusModule.forApp('gateway', options), {
        logger: ['error'],
      }),
    ]);
    apps = [payouts, webhooks, billing];
    gateway = context;
    client = gateway.get<BusClient>(BUS_CLIENT);
  });

  afterAll(async () => {
    await gateway?.close();
    await Promise.all((apps ?? []).map((app) => app.close()));
    await kafka?.stop();
  });

  it('request-reply returns the owner’s typed reply', async () => {
    inboxes.payouts.balances.set(`${MERCHANT}/live`, { available: 125_000, pending: 4_000 });

    const balance = await request(client, PAYOUTS_BALANCE_GET, {
      merchant_id: MERCHANT,
      mode: 'live',
    });

    expect(balance).toEqual({ available: 125_000, pending: 4_000 });
    expect(inboxes.payouts.requests).toEqual([{ merchant_id: MERCHANT, mode: 'live' }]);
  });

  it('brings a DomainError back with its code', async () => {
    const error = await request(client, PAYOUTS_BALANCE_GET, {
      merchant_id: MERCHANT,
      mode: 'test',
    }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'not_found', message: 'No such merchant.' });
  });

  it('answers validation_error to an invalid payload', async () => {
    const invalid = { merchant_id: MERCHANT, mode: 'sandbox' } as unknown as BalanceRequest;

    await expect(request(client, PAYOUTS_BALANCE_GET, invalid)).rejects.toMatchObject({
      code: 'validation_error',
      details: [{ field: 'mode', issue: 'mode must be one of the following values: test, live' }],
    });
  });

  it('delivers an emitted integration event to each subscribed app once', async () => {
    const event = newIntegrationEvent({ id: 'evt_01JF00000000000000000000K1' });

    await lastValueFrom(client.emit(topicOf('payment.succeeded'), event), {
      defaultValue: undefined,
    });
    await inboxes.payouts.waitForEvents(1);
    await inboxes.webhooks.waitForEvents(1);
    // Long enough for a duplicate to show up if the topic were consumed twice by one group.
    await new Promise((resolve) => setTimeout(resolve, 500));

    expect(inboxes.payouts.events).toEqual([event]);
    expect(inboxes.webhooks.events).toEqual([event]);
    expect(inboxes.billing.deliveries).toBe(0);
  });

  it('redelivers an event to the app whose handler failed on it, and only to that app', async () => {
    const event = newIntegrationEvent({
      id: 'evt_01JF00000000000000000000K2',
      type: 'payout.failed',
    });
    inboxes.webhooks.failNext = 1;
    const deliveriesBefore = inboxes.webhooks.deliveries;
    const startedAt = Date.now();

    await lastValueFrom(client.emit(topicOf('payout.failed'), event), { defaultValue: undefined });
    await inboxes.webhooks.waitForEvents(2, 20_000);
    const redeliveredAfterMs = Date.now() - startedAt;

    expect(inboxes.webhooks.events.at(-1)).toEqual(event);
    expect(inboxes.webhooks.deliveries - deliveriesBefore).toBe(2);
    expect(redeliveredAfterMs).toBeLessThan(20_000);
  });

  it('runs an app with no handler without a consumer (an idle one would crash its group)', async () => {
    const statuses: string[] = [];
    const app = await NestFactory.createMicroservice(NoHandlersModule, {
      ...busServerStrategy('gateway', { kafkaBrokers: kafka.brokers, kafkaMaxWaitMs: 20 }),
      logger: false,
    });
    const subscription = app.status.subscribe((status) => statuses.push(status));
    try {
      await app.listen();
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      subscription.unsubscribe();
      await app.close();
    }

    expect(statuses).toContain('connected');
    expect(statuses).not.toContain('crashed');
  });
});
