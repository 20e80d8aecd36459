import { FoldCache, foldStreamTo } from './fold-cache';
import { InMemoryEventStore } from './in-memory-event-store';

type Added = { type: 'Added'; data: { n: number } };

/** A running total of a stream of `Added` events. */
const TOTAL = {
  initialState: () => 0,
  evolve: (total: number, event: Added) => total + event.data.n,
  asEvent: (stored: { type: string; data: unknown }) =>
    stored.type === 'Added' ? (stored as Added) : undefined,
};

const added = (n: number) => ({ type: 'Added', data: { n } });

describe('foldStreamTo', () => {
  let store: InMemoryEventStore;

  beforeEach(async () => {
    store = new InMemoryEventStore();
    await store.appendToStream('total-1', [added(1), added(10), added(100)]);
  });

  it('folds the stream up to the event, that event included, and no further', async () => {
    const { events } = await store.readStream('total-1');

    expect(await foldStreamTo(store, events[0]!, TOTAL)).toBe(1);
    expect(await foldStreamTo(store, events[1]!, TOTAL)).toBe(11);
    expect(await foldStreamTo(store, events[2]!, TOTAL)).toBe(111);
  });

  it("takes the cache's state when the cache holds the stream at exactly the event's revision", async () => {
    const { events } = await store.readStream('total-1');
    const cache = new FoldCache<number>();
    // A state the store would never give: it shows which one was taken.
    cache.set('total-1', { state: -5, revision: 1n, position: events[1]!.position });

    expect(await foldStreamTo(store, events[1]!, TOTAL, cache)).toBe(-5);
    expect(await foldStreamTo(store, events[2]!, TOTAL, cache)).toBe(111);
    expect(await foldStreamTo(store, events[0]!, TOTAL, cache)).toBe(1);
  });
});
