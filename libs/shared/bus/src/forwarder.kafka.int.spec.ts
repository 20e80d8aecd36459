import type { INestMicroservice } from '@nestjs/common';
import type { IntegrationEvent } from '@xaalis/contracts';
import { bareEventObject } from '@xaalis/contracts/testing';
import { InMemoryEventStore, type RecordedEvent } from '@xaalis/event-store';
import { describeWithKafka, startKafkaMock, type KafkaMock } from '@xaalis/testing';
import { createBusClient, type BusClient, type BusOptions } from './bus-client';
import { InMemoryCheckpointStore } from './checkpoint-store';
import { EventForwarder } from './forwarder';
import { integrationEventId } from './integration-event-id';
import { Inbox, startFixtureApp } from './testing/fixture-apps';

// See kafka/kafka.int.spec.ts: the per-project testTimeout is not applied; group joins take 3 s.
jest.setTimeout(30_000);

const toIntegrationEvents = (event: RecordedEvent): IntegrationEvent[] =>
  event.type !== 'PaymentSucceeded'
    ? []
    : [
        {
          id: integrationEventId(event),
          type: 'payment.succeeded',
          merchant_id: 'mer_01JF0000000000000000000001',
          livemode: false,
          created_at: event.createdAt.toISOString(),
          source: { stream: event.streamName, revision: Number(event.revision) },
          data: { object: bareEventObject(event.data as Record<string, unknown>) },
        },
      ];

const succeeded = (n: number) => ({
  type: 'PaymentSucceeded',
  data: { object: 'payment', id: `pay_${n}` },
});

describeWithKafka('EventForwarder over Kafka (mock cluster)', () => {
  let kafka: KafkaMock;
  let apps: INestMicroservice[];
  let client: BusClient;
  const inboxes = { payouts: new Inbox(), webhooks: new Inbox() };
  const store = new InMemoryEventStore();
  // Outlives the forwarders, as the bus_checkpoints row does.
  const checkpoints = new InMemoryCheckpointStore();

  const startForwarder = async () => {
    const forwarder = new EventForwarder({
      store,
      name: 'payments',
      streamPrefixes: ['payment-'],
      toIntegrationEvents,
      client,
      checkpoints,
      idleWaitMs: 100,
    });
    await forwarder.start();
    return forwarder;
  };
  const ids = (inbox: Inbox) => inbox.events.map((event) => event.data.object.id).sort();

  beforeAll(async () => {
    kafka = await startKafkaMock();
    const options: BusOptions = { kafkaBrokers: kafka.brokers, kafkaMaxWaitMs: 20 };
    client = createBusClient('payments', options);
    apps = await Promise.all([
      startFixtureApp('payouts', inboxes.payouts, options),
      startFixtureApp('webhooks', inboxes.webhooks, options),
      client.connect(),
    ]).then(([payouts, webhooks]) => [payouts, webhooks]);
  });

  afterAll(async () => {
    await client?.close();
    await Promise.all((apps ?? []).map((app) => app.close()));
    await kafka?.stop();
  });

  it('publishes appended events to every subscribed app and resumes after a restart without losing any', async () => {
    await store.appendToStream('payment-1', [succeeded(1), { type: 'PaymentCaptured', data: {} }]);
    await store.appendToStream('merchant-1', [{ type: 'MerchantCreated', data: {} }]);
    await store.appendToStream('payment-2', [succeeded(2)]);

    const first = await startForwarder();
    await store.appendToStream('payment-3', [succeeded(3)]);
    await inboxes.webhooks.waitForEvents(3);
    await inboxes.payouts.waitForEvents(3);
    await first.stop();

    // Appended while no forwarder runs: the next one must pick them up from the checkpoint.
    await store.appendToStream('payment-1', [succeeded(4)]);
    await store.appendToStream('payment-4', [succeeded(5)]);
    const second = await startForwarder();
    await inboxes.webhooks.waitForEvents(5);
    await inboxes.payouts.waitForEvents(5);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await second.stop();

    const all = ['pay_1', 'pay_2', 'pay_3', 'pay_4', 'pay_5'];
    expect(ids(inboxes.webhooks)).toEqual(all);
    expect(ids(inboxes.payouts)).toEqual(all);
    expect(await checkpoints.load('payments')).toBe((await store.readAll()).at(-1)!.position);
  });
});
