import { randomUUID } from 'node:crypto';
import { ConcurrencyError, DuplicateEventIdError } from './event-store';
import { eventStoreContract } from './event-store.contract';
import { InMemoryEventStore } from './in-memory-event-store';

eventStoreContract('InMemoryEventStore', async () => new InMemoryEventStore());

describe('InMemoryEventStore', () => {
  it('refuses a batch that only partly repeats an earlier append', async () => {
    const store = new InMemoryEventStore();
    const [a, b] = [randomUUID(), randomUUID()];
    await store.appendToStream(
      'order-1',
      [
        { id: a, type: 'A', data: {} },
        { id: b, type: 'B', data: {} },
      ],
      {
        expectedRevision: 'no_stream',
      },
    );

    await expect(
      store.appendToStream(
        'order-1',
        [
          { id: a, type: 'A', data: {} },
          { id: randomUUID(), type: 'C', data: {} },
        ],
        {
          expectedRevision: 'no_stream',
        },
      ),
    ).rejects.toThrow(ConcurrencyError);
    expect((await store.readStream('order-1')).events).toHaveLength(2);
  });

  it('keeps event ids unique across streams', async () => {
    const store = new InMemoryEventStore();
    const id = randomUUID();
    await store.appendToStream('order-1', [{ id, type: 'A', data: {} }]);

    await expect(store.appendToStream('order-2', [{ id, type: 'A', data: {} }])).rejects.toThrow(
      DuplicateEventIdError,
    );
    expect((await store.readStream('order-2')).currentRevision).toBeUndefined();
  });

  it('hands out copies: changing a read event changes nothing stored', async () => {
    const store = new InMemoryEventStore();
    const data = { amount: 100 };
    await store.appendToStream('order-1', [{ type: 'A', data }]);
    data.amount = 1;
    const [read] = (await store.readStream('order-1')).events;
    (read!.data as { amount: number }).amount = 2;

    expect((await store.readStream('order-1')).events[0]!.data).toEqual({ amount: 100 });
  });

  it('wakes waiters when closed', async () => {
    const store = new InMemoryEventStore();
    const waiting = store.waitForAppend(null, 60_000);
    await store.close();
    await expect(waiting).resolves.toBeUndefined();
  });
});
