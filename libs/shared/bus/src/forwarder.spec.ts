import { defer, type Observable } from 'rxjs';
import type { IntegrationEvent } from '@xaalis/contracts';
import { bareEventObject } from '@xaalis/contracts/testing';
import { InMemoryEventStore, type RecordedEvent } from '@xaalis/event-store';
import { InMemoryCheckpointStore, type CheckpointStore } from './checkpoint-store';
import { EventForwarder } from './forwarder';
import { integrationEventId } from './integration-event-id';

const MERCHANT = 'mer_01JF0000000000000000000001';

/** The payments context's mapping, reduced to what the tests need. */
function toIntegrationEvents(event: RecordedEvent): IntegrationEvent[] {
  if (event.type !== 'PaymentSucceeded') return [];
  const data = event.data as { paymentId: string; amount: number };
  return [
    {
      id: integrationEventId(event),
      type: 'payment.succeeded',
      merchant_id: MERCHANT,
      livemode: false,
      created_at: event.createdAt.toISOString(),
      source: { stream: event.streamName, revision: Number(event.revision) },
      data: {
        object: bareEventObject({ object: 'payment', id: data.paymentId, amount: data.amount }),
      },
    },
  ];
}

/** Records every acknowledged emit; `failNext` emits are refused first. */
class FakeBus {
  readonly published: Array<{ topic: string; event: IntegrationEvent }> = [];
  failNext = 0;

  emit<Result, Input>(topic: string, event: Input): Observable<Result> {
    return defer(async () => {
      if (this.failNext > 0) {
        this.failNext--;
        throw new Error('broker down');
      }
      this.published.push({ topic, event: event as IntegrationEvent });
      return undefined as Result;
    });
  }

  paymentIds(): unknown[] {
    return this.published.map(({ event }) => event.data.object.id);
  }
}

async function until(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe('EventForwarder', () => {
  let store: InMemoryEventStore;
  let bus: FakeBus;
  let checkpoints: InMemoryCheckpointStore;
  let warn: jest.Mock;
  const running: EventForwarder[] = [];

  const succeeded = (n: number) => ({
    type: 'PaymentSucceeded',
    data: { paymentId: `pay_${String(n).padStart(26, '0')}`, amount: n * 100 },
  });

  function forwarder(
    overrides: { checkpoints?: CheckpointStore; map?: typeof toIntegrationEvents } = {},
  ) {
    const created = new EventForwarder({
      store,
      name: 'payments',
      streamPrefixes: ['payment-'],
      toIntegrationEvents: overrides.map ?? toIntegrationEvents,
      client: bus,
      checkpoints: overrides.checkpoints ?? checkpoints,
      idleWaitMs: 50,
      retryDelayMs: 1,
      logger: { warn },
    });
    running.push(created);
    return created;
  }

  beforeEach(() => {
    store = new InMemoryEventStore();
    bus = new FakeBus();
    checkpoints = new InMemoryCheckpointStore();
    warn = jest.fn();
  });

  afterEach(async () => {
    for (const each of running.splice(0)) await each.stop();
  });

  it('publishes the integration events of its streams in order, on their topics', async () => {
    await store.appendToStream('payment-1', [succeeded(1), { type: 'PaymentCaptured', data: {} }]);
    await store.appendToStream('merchant-1', [{ type: 'MerchantCreated', data: {} }]);
    await store.appendToStream('payment-2', [succeeded(2)]);

    await forwarder().start();
    await until(() => bus.published.length === 2);

    expect(bus.published.map(({ topic }) => topic)).toEqual([
      'events.payment.succeeded',
      'events.payment.succeeded',
    ]);
    expect(bus.published[0]!.event).toMatchObject({
      type: 'payment.succeeded',
      source: { stream: 'payment-1', revision: 0 },
      data: { object: { id: succeeded(1).data.paymentId, amount: 100 } },
    });
    expect(bus.paymentIds()).toEqual([succeeded(1).data.paymentId, succeeded(2).data.paymentId]);
  });

  it('follows appends made after it started', async () => {
    await forwarder().start();
    await store.appendToStream('payment-1', [succeeded(1)]);
    await store.appendToStream('payment-1', [succeeded(2)]);

    await until(() => bus.published.length === 2);

    expect(bus.paymentIds()).toEqual([succeeded(1).data.paymentId, succeeded(2).data.paymentId]);
  });

  it('checkpoints what it published and resumes after it on restart', async () => {
    await store.appendToStream('payment-1', [succeeded(1), succeeded(2)]);
    const first = forwarder();
    await first.start();
    await until(() => bus.published.length === 2);
    await first.stop();
    const [, second] = await store.readAll();
    expect(await checkpoints.load('payments')).toBe(second!.position);

    await store.appendToStream('payment-2', [succeeded(3)]);
    await forwarder().start();
    await until(() => bus.published.length === 3);

    expect(bus.paymentIds()).toEqual([1, 2, 3].map((n) => succeeded(n).data.paymentId));
  });

  it('keeps the checkpoint until the publish is acknowledged, then publishes what failed', async () => {
    await store.appendToStream('payment-1', [succeeded(1)]);
    const subject = forwarder();
    await subject.start();
    await until(() => bus.published.length === 1);
    const afterFirst = await checkpoints.load('payments');

    bus.failNext = 3;
    await store.appendToStream('payment-1', [succeeded(2), succeeded(3)]);
    await until(() => warn.mock.calls.length >= 1);
    expect(await checkpoints.load('payments')).toBe(afterFirst);

    await until(() => bus.published.length === 3);
    expect(bus.paymentIds()).toEqual([1, 2, 3].map((n) => succeeded(n).data.paymentId));
    expect(warn).toHaveBeenCalledTimes(3);
    expect(subject.position).toBe((await store.readAll()).at(-1)!.position);
  });

  it('publishes a batch again when its checkpoint could not be saved: duplicates, never a loss', async () => {
    let refuseSaves = 1;
    const flaky: CheckpointStore = {
      load: (name) => checkpoints.load(name),
      save: async (name, position) => {
        if (refuseSaves-- > 0) throw new Error('database down');
        await checkpoints.save(name, position);
      },
    };
    await store.appendToStream('payment-1', [succeeded(1), succeeded(2)]);

    await forwarder({ checkpoints: flaky }).start();
    await until(() => bus.published.length === 4);

    expect(bus.paymentIds()).toEqual([1, 2, 1, 2].map((n) => succeeded(n).data.paymentId));
    // Same ids both times, so consumers drop the duplicates.
    expect(bus.published[2]!.event.id).toBe(bus.published[0]!.event.id);
    expect(await checkpoints.load('payments')).toBe((await store.readAll()).at(-1)!.position);
  });

  it('publishes the streams of a batch side by side, each stream in order', async () => {
    // payment-1's first publish waits until payment-2's event is out: one after the other, it
    // would never finish.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const order: string[] = [];
    const slowFirst: Pick<FakeBus, 'emit'> = {
      emit: <Result, Input>(_topic: string, event: Input) =>
        defer(async () => {
          const id = (event as IntegrationEvent).data.object.id as string;
          if (id === succeeded(1).data.paymentId) await released;
          if (id === succeeded(3).data.paymentId) release();
          order.push(id);
          return undefined as Result;
        }),
    };
    bus = slowFirst as FakeBus;
    await store.appendToStream('payment-1', [succeeded(1), succeeded(2)]);
    await store.appendToStream('payment-2', [succeeded(3)]);

    const subject = forwarder();
    const subjectPosition = () => subject.position;
    await subject.start();
    await until(() => order.length === 3);

    expect(order).toEqual([3, 1, 2].map((n) => succeeded(n).data.paymentId));
    const last = (await store.readAll()).at(-1)!.position;
    await until(() => subjectPosition() === last);
  });

  it('stops at an invalid integration event rather than skip it', async () => {
    const broken = (event: RecordedEvent) =>
      toIntegrationEvents(event).map((integration) => ({
        ...integration,
        created_at: 'yesterday',
      }));
    await store.appendToStream('payment-1', [succeeded(1)]);

    await forwarder({ map: broken }).start();
    await until(() => warn.mock.calls.length >= 2);

    expect(bus.published).toEqual([]);
    expect(await checkpoints.load('payments')).toBeNull();
  });
});

describe('integrationEventId', () => {
  const recorded = {
    id: '3f2c1a9e-0000-4000-8000-000000000001',
    createdAt: new Date('2026-11-22T10:00:00.000Z'),
  };

  it('is the same for the same recorded event, and differs per index', () => {
    expect(integrationEventId(recorded)).toBe(integrationEventId({ ...recorded }));
    expect(integrationEventId(recorded, 1)).not.toBe(integrationEventId(recorded, 0));
    expect(
      integrationEventId({ ...recorded, id: '3f2c1a9e-0000-4000-8000-000000000002' }),
    ).not.toBe(integrationEventId(recorded));
  });

  it('is an evt_ id of 26 Crockford characters that sorts by record time', () => {
    const later = { ...recorded, createdAt: new Date('2026-11-22T10:00:00.001Z') };

    expect(integrationEventId(recorded)).toMatch(/^evt_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(integrationEventId(recorded) < integrationEventId(later)).toBe(true);
  });
});
