import { subscribe, type SubscribeOptions, type Subscription } from './catch-up-subscription';
import type { RecordedEvent } from './event-store';
import { InMemoryEventStore } from './in-memory-event-store';

describe('subscribe (catch-up subscription)', () => {
  let store: InMemoryEventStore;
  let subscription: Subscription | undefined;
  const logger = { warn: jest.fn() };

  beforeEach(() => {
    store = new InMemoryEventStore();
    logger.warn.mockReset();
  });

  afterEach(async () => {
    await subscription?.stop();
    subscription = undefined;
    jest.restoreAllMocks();
  });

  const start = (options: Partial<SubscribeOptions> & Pick<SubscribeOptions, 'onBatch'>) => {
    subscription = subscribe(store, {
      idleWaitMs: 1_000,
      logger,
      retry: { initialDelayMs: 5, maxDelayMs: 20 },
      ...options,
    });
    return subscription;
  };

  const appendTo = (streamName: string, ...types: string[]) =>
    store.appendToStream(
      streamName,
      types.map((type) => ({ type, data: { type } })),
    );

  it('delivers what is stored in batches, then what is appended later, in order', async () => {
    await appendTo('payment-1', 'A', 'B', 'C');
    await appendTo('payment-2', 'D', 'E');
    const batches: string[][] = [];
    const sub = start({
      batchSize: 2,
      onBatch: async (events) => void batches.push(types(events)),
    });

    await until(() => batches.flat().length === 5);
    const { position } = await appendTo('payment-1', 'F');
    await until(() => batches.flat().length === 6);

    expect(batches).toEqual([['A', 'B'], ['C', 'D'], ['E'], ['F']]);
    expect(sub.position).toBe(position);
  });

  it('reads a burst of appends in few batches, spaced apart, and misses none of them', async () => {
    const reads = jest.spyOn(store, 'readAllPage');
    const seen: string[] = [];
    start({ readSpacingMs: 100, onBatch: async (events) => void seen.push(...types(events)) });
    await sleep(150); // the first read, of nothing, is behind it

    const expected: string[] = [];
    for (let n = 0; n < 40; n++) {
      expected.push(`E${n}`);
      await appendTo(`payment-${n}`, `E${n}`);
      await sleep(5);
    }
    await until(() => seen.length === 40);

    expect(seen).toEqual(expected);
    // About 200 ms of appends at most one read per 100 ms; unspaced, a read per append or so.
    expect(reads.mock.calls.length).toBeLessThanOrEqual(8);
  });

  it('starts after the checkpoint it is given', async () => {
    await appendTo('payment-1', 'A', 'B');
    const [first] = await store.readAll({ maxCount: 1 });
    const seen: string[] = [];

    start({ after: first!.position, onBatch: async (events) => void seen.push(...types(events)) });

    await until(() => seen.length === 1);
    expect(seen).toEqual(['B']);
  });

  it('hands over only the streams it asked for, and moves its checkpoint past the others', async () => {
    await appendTo('merchant-1', 'M1');
    await appendTo('payment-1', 'P1');
    await appendTo('merchant-2', 'M2');
    const { position: last } = await appendTo('payout-1', 'X');
    const reads = jest.spyOn(store, 'readAllPage');
    const seen: string[] = [];

    const sub = start({
      streamPrefixes: ['merchant-'],
      onBatch: async (events) => void seen.push(...types(events)),
    });

    await until(() => sub.position === last);
    expect(seen).toEqual(['M1', 'M2']);
    // The store filters: the other streams' events are never read here.
    expect(reads.mock.calls.map(([options]) => options?.streamPrefixes)).toEqual(
      reads.mock.calls.map(() => ['merchant-']),
    );
  });

  it('offers a failed batch again after a backoff, never skipping it, and logs each failure', async () => {
    await appendTo('payment-1', 'A', 'B');
    const attempts: string[][] = [];
    const sub = start({
      onBatch: async (events) => {
        attempts.push(types(events));
        if (attempts.length <= 2) throw new Error('database down');
      },
    });

    await until(() => attempts.length === 3);
    await until(() => sub.position !== null);

    expect(attempts).toEqual([
      ['A', 'B'],
      ['A', 'B'],
      ['A', 'B'],
    ]);
    expect(logger.warn).toHaveBeenCalledTimes(2);
    expect(logger.warn).toHaveBeenLastCalledWith(
      expect.stringContaining('failed (attempt 2), retrying in 10 ms'),
      expect.any(Error),
    );
  });

  it('retries a failing read the same way', async () => {
    await appendTo('payment-1', 'A');
    jest
      .spyOn(store, 'readAllPage')
      .mockRejectedValueOnce(new Error('connection reset'))
      .mockRejectedValueOnce(new Error('connection reset'));
    const seen: string[] = [];

    start({ onBatch: async (events) => void seen.push(...types(events)) });

    await until(() => seen.length === 1);
    expect(seen).toEqual(['A']);
    expect(logger.warn).toHaveBeenCalledTimes(2);
  });

  it('stop() waits for the batch in hand, then nothing more is delivered', async () => {
    await appendTo('payment-1', 'A');
    let release!: () => void;
    const seen: string[] = [];
    const sub = start({
      onBatch: async (events) => {
        await new Promise<void>((resolve) => (release = resolve));
        seen.push(...types(events));
      },
    });
    await until(() => release !== undefined);

    const stopping = sub.stop();
    release();
    await stopping;
    await appendTo('payment-1', 'B');
    await sleep(50);

    expect(seen).toEqual(['A']);
    expect(sub.position).toBe((await store.readAll({ maxCount: 1 }))[0]!.position);
  });

  it('stops when its signal aborts, even while waiting for appends', async () => {
    const aborted = new AbortController();
    const seen: string[] = [];
    start({ signal: aborted.signal, onBatch: async (events) => void seen.push(...types(events)) });
    await sleep(20);

    aborted.abort();
    await sleep(20);
    await appendTo('payment-1', 'A');
    await sleep(50);

    expect(seen).toEqual([]);
  });

  it('stops retrying a failing batch when stopped, without moving its checkpoint', async () => {
    await appendTo('payment-1', 'A');
    const sub = start({
      onBatch: async () => {
        throw new Error('always');
      },
    });
    await until(() => logger.warn.mock.calls.length >= 2);

    await sub.stop();

    expect(sub.position).toBeNull();
  });
});

const types = (events: RecordedEvent[]) => events.map((event) => event.type);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(5);
  }
}
