import { InMemoryEventStore, type RecordedEvent } from '@xaalis/event-store';
import type { Projection } from './projection';
import type { PrismaClient } from './prisma';
import { PROJECTION_READ_SPACING_MS, ProjectionRunner } from './projection-runner';
import { asFake, InMemoryCheckpoints } from './testing/in-memory-checkpoints';

/** Counts events per merchant stream and remembers every application, to spot doubles. */
function merchantCounter(
  applied: string[] = [],
  failOn?: (event: RecordedEvent) => boolean,
): Projection {
  return {
    name: 'merchant-counts',
    streamPrefixes: ['merchant-'],
    async apply(event, tx) {
      await Promise.resolve(); // let other runners interleave
      if (failOn?.(event)) throw new Error(`cannot apply ${event.type}`);
      applied.push(event.id);
      asFake(tx).write((model) =>
        model.set(event.streamName, ((model.get(event.streamName) as number) ?? 0) + 1),
      );
    },
    async reset(tx) {
      asFake(tx).write((model) => model.clear());
    },
  };
}

const noPrisma = {} as PrismaClient;

function setUp(
  options: {
    batchSize?: number;
    applied?: string[];
    failOn?: (event: RecordedEvent) => boolean;
    /** 'default': the runner's own (PROJECTION_READ_SPACING_MS). Default here 0. */
    readSpacingMs?: number | 'default';
  } = {},
) {
  const store = new InMemoryEventStore();
  const checkpoints = new InMemoryCheckpoints();
  const projection = merchantCounter(options.applied, options.failOn);
  const newRunner = () =>
    new ProjectionRunner({
      store,
      prisma: noPrisma,
      projections: [projection],
      batchSize: options.batchSize ?? 500,
      checkpoints,
      idleWaitMs: 20,
      readSpacingMs: options.readSpacingMs === 'default' ? undefined : (options.readSpacingMs ?? 0),
      onError: () => undefined,
    });
  return { store, checkpoints, projection, runner: newRunner(), newRunner };
}

/** The `after` of every read the runner makes for a projection (reads with stream prefixes). */
function countPrefixedReads(store: InMemoryEventStore): Array<string | null> {
  const reads: Array<string | null> = [];
  const readAll = store.readAll.bind(store);
  store.readAll = (options = {}) => {
    if (options.streamPrefixes !== undefined) reads.push(options.after ?? null);
    return readAll(options);
  };
  return reads;
}

const created = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ type: 'Created', data: { n: i } }));

describe('ProjectionRunner', () => {
  it('applies only the events of its streams and moves the checkpoint to the last one', async () => {
    const { store, checkpoints, runner } = setUp();
    const first = await store.appendToStream('merchant-a', created(2));
    await store.appendToStream('payment-x', created(1));

    await runner.runOnce();

    expect(checkpoints.model.get('merchant-a')).toBe(2);
    expect(checkpoints.model.has('payment-x')).toBe(false);
    expect(checkpoints.positions.get('merchant-counts')).toBe(first.position);
  });

  it('walks the store through its own streams only', async () => {
    const { store, checkpoints, runner } = setUp();
    await store.appendToStream('merchant-a', created(1));
    const last = await store.appendToStream('payment-x', created(3));
    const pages = jest.spyOn(store, 'readAllPage');

    await runner.runOnce();
    await runner.catchUpTo(last.position);

    expect(checkpoints.model.get('merchant-a')).toBe(1);
    expect(pages).toHaveBeenCalled();
    expect(pages.mock.calls.map(([options]) => options?.streamPrefixes)).toEqual(
      pages.mock.calls.map(() => ['merchant-']),
    );
  });

  it('commits one transaction per batch', async () => {
    const { store, checkpoints, runner } = setUp({ batchSize: 2 });
    const last = await store.appendToStream('merchant-a', created(5));

    await runner.runOnce();

    expect(checkpoints.model.get('merchant-a')).toBe(5);
    expect(checkpoints.commits).toBe(3);
    expect(checkpoints.positions.get('merchant-counts')).toBe(last.position);
  });

  it('rolls a failing batch back whole: no event applied, checkpoint unmoved', async () => {
    const { store, checkpoints, runner } = setUp({ failOn: (event) => event.type === 'Broken' });
    await store.appendToStream('merchant-a', [...created(2), { type: 'Broken', data: {} }]);

    await expect(runner.runOnce()).rejects.toThrow('cannot apply Broken');

    expect(checkpoints.model.size).toBe(0);
    expect(checkpoints.positions.get('merchant-counts')).toBeNull();
  });

  it('never applies an event twice when two runners work at once', async () => {
    const applied: string[] = [];
    const { store, checkpoints, runner, newRunner } = setUp({ batchSize: 3, applied });
    await store.appendToStream('merchant-a', created(10));
    const last = await store.appendToStream('merchant-b', created(10));
    const other = newRunner();

    await Promise.all([
      runner.catchUpTo(last.position),
      other.catchUpTo(last.position),
      runner.runOnce(),
      other.runOnce(),
    ]);

    expect(applied).toHaveLength(20);
    expect(new Set(applied).size).toBe(20);
    expect(checkpoints.model.get('merchant-a')).toBe(10);
    expect(checkpoints.model.get('merchant-b')).toBe(10);
  });

  it('catches up to a position in a stream the projection ignores', async () => {
    const { store, checkpoints, runner } = setUp();
    const own = await store.appendToStream('merchant-a', created(1));
    const foreign = await store.appendToStream('payment-x', created(3));

    await runner.catchUpTo(foreign.position, { timeoutMs: 1000 });

    expect(checkpoints.model.get('merchant-a')).toBe(1);
    expect(checkpoints.positions.get('merchant-counts')).toBe(own.position);
  });

  it('reads nothing of its own and takes no lock when the appends were all in other streams', async () => {
    const { store, checkpoints, runner } = setUp();
    const reads = countPrefixedReads(store);
    const own = await store.appendToStream('merchant-a', created(1));
    await runner.runOnce();
    const readsBefore = reads.length;
    const commitsBefore = checkpoints.commits;

    const foreign = await store.appendToStream('payment-x', created(3));
    await runner.runOnce();
    await runner.catchUpTo(foreign.position, { timeoutMs: 1000 });

    expect(reads.slice(readsBefore)).toEqual([]);
    expect(checkpoints.commits).toBe(commitsBefore);
    expect(checkpoints.positions.get('merchant-counts')).toBe(own.position);
  });

  it('reads its streams after what it covered, not from a checkpoint other streams left behind', async () => {
    const { store, checkpoints, runner } = setUp();
    const reads = countPrefixedReads(store);
    const own = await store.appendToStream('merchant-a', created(1));
    await runner.runOnce();
    for (let i = 0; i < 5; i++) await store.appendToStream(`payment-${i}`, created(2));
    const foreign = await store.appendToStream('payment-z', created(1));
    await runner.runOnce();
    const readsBefore = reads.length;

    const pages = jest.spyOn(store, 'readAllPage');
    await store.appendToStream('merchant-b', created(2));
    await runner.runOnce();

    // Its checkpoint was still at merchant-a's event; the read starts past the payments (the
    // walk's page, which the drain then takes rather than read again).
    expect(pages.mock.calls[0]?.[0]?.after).toBe(foreign.position);
    expect(reads.slice(readsBefore)).toEqual([]);
    expect(checkpoints.model.get('merchant-b')).toBe(2);
    expect(checkpoints.positions.get('merchant-counts')).not.toBe(own.position);
  });

  it('reads each event once per round: the drain takes the page the walk read', async () => {
    const { store, checkpoints, runner } = setUp();
    const pages = jest.spyOn(store, 'readAllPage');
    await store.appendToStream('merchant-a', created(3));
    await store.appendToStream('payment-x', created(2));
    const last = await store.appendToStream('merchant-b', created(1));

    await runner.runOnce();

    // readAll reads through readAllPage in this store: one call is one read.
    expect(pages).toHaveBeenCalledTimes(1);
    expect(checkpoints.model.get('merchant-a')).toBe(3);
    expect(checkpoints.model.get('merchant-b')).toBe(1);
    expect(checkpoints.positions.get('merchant-counts')).toBe(last.position);
  });

  it('reads again when the walk read from elsewhere than the projection covered', async () => {
    const { store, checkpoints, projection } = setUp();
    const other: Projection = { ...merchantCounter(), name: 'other', streamPrefixes: ['payment-'] };
    const runner = new ProjectionRunner({
      store,
      prisma: noPrisma,
      projections: [projection, other],
      checkpoints,
      readSpacingMs: 0,
      onError: () => undefined,
    });
    const pages = jest.spyOn(store, 'readAllPage');
    await store.appendToStream('merchant-a', created(2));
    await store.appendToStream('payment-x', created(1));

    await runner.runOnce();

    // Two projections: the walk reads both prefixes, each drain reads its own.
    expect(pages).toHaveBeenCalledTimes(3);
    expect(checkpoints.model.get('merchant-a')).toBe(2);
  });

  it('catchUpTo waits while another transaction holds the checkpoint', async () => {
    const { store, checkpoints, runner } = setUp();
    const appended = await store.appendToStream('merchant-a', created(1));
    let release!: () => void;
    const held = checkpoints.withLock(
      'merchant-counts',
      { wait: true, timeoutMs: 1000 },
      async (_tx, position) => {
        await new Promise<void>((resolve) => (release = resolve));
        return { position };
      },
    );

    const caughtUp = runner.catchUpTo(appended.position, { timeoutMs: 2000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(checkpoints.model.get('merchant-a')).toBeUndefined();
    release();
    await held;
    await caughtUp;

    expect(checkpoints.model.get('merchant-a')).toBe(1);
  });

  it('catchUpTo gives up on a position the store never shows', async () => {
    const { runner } = setUp();
    await expect(runner.catchUpTo('99999999999999999999', { timeoutMs: 50 })).rejects.toThrow(
      'Timed out',
    );
  });

  it('keeps up in the background once started', async () => {
    const { store, checkpoints, runner } = setUp();
    await runner.start();
    await store.appendToStream('merchant-a', created(3));

    await waitFor(() => checkpoints.model.get('merchant-a') === 3);
    await runner.stop();
    await store.appendToStream('merchant-a', created(1));
    await new Promise((resolve) => setTimeout(resolve, 60));

    expect(checkpoints.model.get('merchant-a')).toBe(3);
  });

  /** Transactions a runner takes for 40 appends over about 200 ms, once it has been idle a while. */
  async function commitsForBurst(readSpacingMs: number | 'default'): Promise<number> {
    const { store, checkpoints, runner } = setUp({ readSpacingMs });
    await runner.start();
    await new Promise((resolve) => setTimeout(resolve, 250));
    const commitsBefore = checkpoints.commits;
    for (let n = 0; n < 40; n++) {
      await store.appendToStream('merchant-a', created(1));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await waitFor(() => checkpoints.model.get('merchant-a') === 40);
    await runner.stop();
    return checkpoints.commits - commitsBefore;
  }

  it('applies a burst of appends in few transactions, its rounds spaced apart', async () => {
    // At most a round per 100 ms; unspaced, a transaction per append or so.
    expect(await commitsForBurst(100)).toBeLessThanOrEqual(6);
  });

  it('spaces its rounds 200 ms apart by default: a burst is applied in a few large batches', async () => {
    expect(PROJECTION_READ_SPACING_MS).toBe(200);
    // The first append at once, the rest in a round or two after it.
    expect(await commitsForBurst('default')).toBeLessThanOrEqual(3);
  });

  it('rebuilds in one transaction: readers see the old model until it commits', async () => {
    const { store, checkpoints, runner, projection } = setUp({ batchSize: 2 });
    const last = await store.appendToStream('merchant-a', created(5));
    await runner.runOnce();
    checkpoints.model.set('merchant-a', 42); // a model gone wrong, as a rebuild would find it
    const seenDuringRebuild: unknown[] = [];
    const progress: number[] = [];
    const apply = projection.apply.bind(projection);
    projection.apply = async (event, tx) => {
      seenDuringRebuild.push(checkpoints.model.get('merchant-a'));
      await apply(event, tx);
    };

    const commitsBefore = checkpoints.commits;
    const result = await runner.rebuild('merchant-counts', (step) => progress.push(step.events));

    expect(result).toEqual({ projection: 'merchant-counts', events: 5, position: last.position });
    expect(progress).toEqual([2, 4, 5]);
    expect(new Set(seenDuringRebuild)).toEqual(new Set([42]));
    expect(checkpoints.model.get('merchant-a')).toBe(5);
    expect(checkpoints.positions.get('merchant-counts')).toBe(last.position);
    expect(checkpoints.commits - commitsBefore).toBe(1);
  });

  it('refuses to rebuild a projection it does not know', async () => {
    const { runner } = setUp();
    await expect(runner.rebuild('nope')).rejects.toThrow(
      'No projection named nope (known: merchant-counts)',
    );
  });

  it('refuses two projections with one name', () => {
    const projection = merchantCounter();
    expect(
      () =>
        new ProjectionRunner({
          store: new InMemoryEventStore(),
          prisma: noPrisma,
          projections: [projection, projection],
        }),
    ).toThrow('unique');
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
