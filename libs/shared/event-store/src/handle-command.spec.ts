import { DomainError, assertNever, invalidState, type Decider } from '@xaalis/kernel';
import { ConcurrencyError, type EventStore } from './event-store';
import { FoldCache } from './fold-cache';
import { handleCommand } from './handle-command';
import { InMemoryEventStore } from './in-memory-event-store';

// A wallet as a small decider: enough to see folding, deciding and conflicts.
type WalletEvent =
  | { type: 'WalletOpened'; data: { walletId: string } }
  | { type: 'WalletCredited'; data: { amount: number } };
type WalletCommand =
  | { type: 'Open'; data: { walletId: string } }
  | { type: 'Credit'; data: { amount: number } }
  | { type: 'Touch'; data: Record<string, never> };
type WalletState = { status: 'absent' } | { status: 'open'; balance: number };

const wallet: Decider<WalletState, WalletCommand, WalletEvent> = {
  initialState: () => ({ status: 'absent' }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'WalletOpened':
        return { status: 'open', balance: 0 };
      case 'WalletCredited':
        return state.status === 'open'
          ? { ...state, balance: state.balance + event.data.amount }
          : state;
      default:
        return assertNever(event);
    }
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'Open':
        if (state.status !== 'absent') throw invalidState('The wallet is already open.');
        return [{ type: 'WalletOpened', data: { walletId: command.data.walletId } }];
      case 'Credit':
        if (state.status !== 'open') throw invalidState('The wallet is not open.');
        return [{ type: 'WalletCredited', data: { amount: command.data.amount } }];
      case 'Touch':
        return [];
      default:
        return assertNever(command);
    }
  },
};

const open = { type: 'Open', data: { walletId: 'aw_1' } } as const;
const credit = (amount: number) => ({ type: 'Credit', data: { amount } }) as const;

describe('handleCommand', () => {
  let store: InMemoryEventStore;

  beforeEach(() => {
    store = new InMemoryEventStore();
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('creates the stream (expecting no_stream) and returns what it appended', async () => {
    const append = jest.spyOn(store, 'appendToStream');

    const result = await handleCommand(store, 'wallet-aw_1', wallet, open);

    expect(append).toHaveBeenCalledWith('wallet-aw_1', expect.any(Array), {
      expectedRevision: 'no_stream',
    });
    expect(result).toEqual({
      events: [
        {
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          type: 'WalletOpened',
          data: { walletId: 'aw_1' },
        },
      ],
      state: { status: 'open', balance: 0 },
      created: [],
      nextExpectedRevision: 0n,
      position: expect.any(String),
    });
    const stored = (await store.readStream('wallet-aw_1')).events;
    expect(stored.map((e) => [e.id, e.type, e.data])).toEqual([
      [result.events[0]!.id, 'WalletOpened', { walletId: 'aw_1' }],
    ]);
    expect(result.position).toBe(stored[0]!.position);
  });

  it('folds the stream into the state it decides on, and appends at the revision it read', async () => {
    await handleCommand(store, 'wallet-aw_1', wallet, open);
    await handleCommand(store, 'wallet-aw_1', wallet, credit(500));
    const append = jest.spyOn(store, 'appendToStream');

    const result = await handleCommand(store, 'wallet-aw_1', wallet, credit(250));

    expect(append).toHaveBeenCalledWith('wallet-aw_1', expect.any(Array), { expectedRevision: 1n });
    expect(result.state).toEqual({ status: 'open', balance: 750 });
    expect(result.nextExpectedRevision).toBe(2n);
  });

  it('passes the decider’s DomainError on and appends nothing', async () => {
    const error = await handleCommand(store, 'wallet-aw_1', wallet, credit(100)).catch(
      (e: unknown) => e,
    );

    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'invalid_state' });
    expect((await store.readStream('wallet-aw_1')).currentRevision).toBeUndefined();
  });

  it('appends nothing when the decision is to do nothing', async () => {
    const opened = await handleCommand(store, 'wallet-aw_1', wallet, open);

    const result = await handleCommand(store, 'wallet-aw_1', wallet, { type: 'Touch', data: {} });

    expect(result).toEqual({
      events: [],
      state: { status: 'open', balance: 0 },
      created: [],
      nextExpectedRevision: 0n,
      position: opened.position,
    });
    await expect(
      handleCommand(store, 'wallet-aw_2', wallet, { type: 'Touch', data: {} }),
    ).rejects.toThrow(/does not exist/);
  });

  it('on a conflict, reads again and decides on the fresh state', async () => {
    await handleCommand(store, 'wallet-aw_1', wallet, open);
    const racing = racedOnce(store, async () => {
      await store.appendToStream('wallet-aw_1', [
        { type: 'WalletCredited', data: { amount: 1000 } },
      ]);
    });
    const decide = jest.spyOn(wallet, 'decide');

    const result = await handleCommand(racing, 'wallet-aw_1', wallet, credit(1));

    expect(decide).toHaveBeenCalledTimes(2);
    expect(decide.mock.calls.map(([, state]) => state)).toEqual([
      { status: 'open', balance: 0 },
      { status: 'open', balance: 1000 },
    ]);
    expect(result.state).toEqual({ status: 'open', balance: 1001 });
    expect(result.nextExpectedRevision).toBe(2n);
    expect((await store.readStream('wallet-aw_1')).events.map((e) => e.data)).toEqual([
      { walletId: 'aw_1' },
      { amount: 1000 },
      { amount: 1 },
    ]);
  });

  it('after maxRetries conflicts, answers unavailable with a retry_after, having changed nothing', async () => {
    await handleCommand(store, 'wallet-aw_1', wallet, open);
    jest
      .spyOn(store, 'appendToStream')
      .mockRejectedValue(new ConcurrencyError('wallet-aw_1', 0n, 1n));
    const read = jest.spyOn(store, 'readStream');

    const error = await handleCommand(store, 'wallet-aw_1', wallet, credit(1), {
      maxRetries: 2,
    }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'unavailable', details: { retry_after: 1 } });
    expect((error as DomainError).message).toMatch(
      /^The wallet is being changed by other requests/,
    );
    expect(read).toHaveBeenCalledTimes(3);
    jest.restoreAllMocks();
    expect((await store.readStream('wallet-aw_1')).events).toHaveLength(1);
  });

  it('waits a jittered, doubling time between attempts', async () => {
    await handleCommand(store, 'wallet-aw_1', wallet, open);
    jest
      .spyOn(store, 'appendToStream')
      .mockRejectedValue(new ConcurrencyError('wallet-aw_1', 0n, 1n));
    jest.spyOn(Math, 'random').mockReturnValue(1);
    const waits: number[] = [];
    const setTimeoutSpy = jest.spyOn(global, 'setTimeout').mockImplementation(((
      callback: () => void,
      ms: number,
    ) => {
      waits.push(ms);
      queueMicrotask(callback);
      return 0 as unknown as NodeJS.Timeout;
    }) as typeof setTimeout);

    await handleCommand(store, 'wallet-aw_1', wallet, credit(1)).catch(() => undefined);
    setTimeoutSpy.mockRestore();

    expect(waits).toEqual([5, 10, 20, 40, 80, 160, 320, 320]);
  });

  describe('on a stream said to be new', () => {
    // Opening again is a repeat, not an error: as a create under an idempotency key.
    const openOnce: typeof wallet = {
      ...wallet,
      decide: (command, state) =>
        command.type === 'Open' && state.status === 'open' ? [] : wallet.decide(command, state),
    };

    it('decides on the initial state and appends expecting no stream, without reading', async () => {
      const read = jest.spyOn(store, 'readStream');
      const append = jest.spyOn(store, 'appendToStream');

      const result = await handleCommand(store, 'wallet-aw_1', openOnce, open, { newStream: true });

      expect(read).not.toHaveBeenCalled();
      expect(append).toHaveBeenCalledWith('wallet-aw_1', expect.any(Array), {
        expectedRevision: 'no_stream',
      });
      expect(result).toMatchObject({
        events: [{ type: 'WalletOpened', data: { walletId: 'aw_1' } }],
        state: { status: 'open', balance: 0 },
        nextExpectedRevision: 0n,
      });
    });

    it('finds it there after all (a repeat): reads it at once and decides again, not as a retry', async () => {
      const opened = await handleCommand(store, 'wallet-aw_1', wallet, open);
      const read = jest.spyOn(store, 'readStream');
      const wait = jest.spyOn(global, 'setTimeout');

      const result = await handleCommand(store, 'wallet-aw_1', openOnce, open, {
        newStream: true,
        maxRetries: 0,
      });

      expect(result).toEqual({
        events: [],
        state: { status: 'open', balance: 0 },
        created: [],
        nextExpectedRevision: 0n,
        position: opened.position,
      });
      expect(read).toHaveBeenCalledTimes(1);
      expect(wait).not.toHaveBeenCalled();
      expect((await store.readStream('wallet-aw_1')).events).toHaveLength(1);
    });
  });

  describe('commands on one stream in one process', () => {
    it('take turns: 50 at once all apply, none conflicts, each decided on the state before it', async () => {
      await handleCommand(store, 'wallet-aw_1', wallet, open);
      const append = jest.spyOn(store, 'appendToStream');

      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          handleCommand(store, 'wallet-aw_1', wallet, credit(i + 1)),
        ),
      );

      expect(append).toHaveBeenCalledTimes(50);
      expect(results.map((result) => result.nextExpectedRevision)).toEqual(
        Array.from({ length: 50 }, (_, i) => BigInt(i + 1)),
      );
      expect(results.at(-1)!.state).toEqual({ status: 'open', balance: (50 * 51) / 2 });
    });

    it('take turns even when one fails, and the stream is free again afterwards', async () => {
      const outcomes = await Promise.allSettled([
        handleCommand(store, 'wallet-aw_1', wallet, credit(1)),
        handleCommand(store, 'wallet-aw_1', wallet, open),
        handleCommand(store, 'wallet-aw_1', wallet, credit(2)),
      ]);

      expect(outcomes.map((outcome) => outcome.status)).toEqual([
        'rejected',
        'fulfilled',
        'fulfilled',
      ]);
      expect((await handleCommand(store, 'wallet-aw_1', wallet, credit(3))).state).toEqual({
        status: 'open',
        balance: 5,
      });
    });

    it('do not wait for commands on other streams', async () => {
      await handleCommand(store, 'wallet-aw_1', wallet, open);
      let release!: () => void;
      const blocked = new Promise<void>((resolve) => (release = resolve));
      const slow = racedOnce(store, () => blocked);

      const first = handleCommand(slow, 'wallet-aw_1', wallet, credit(1));
      // Another stream of the same store object goes through while the first waits.
      const other = await handleCommand(slow, 'wallet-aw_2', wallet, {
        type: 'Open',
        data: { walletId: 'aw_2' },
      });
      expect(other.state).toEqual({ status: 'open', balance: 0 });
      release();
      expect((await first).state).toEqual({ status: 'open', balance: 1 });
    });
  });
});

/** The store, with `competitor` run just before the first append: another writer gets in first. */
function racedOnce(store: EventStore, competitor: () => Promise<void>): EventStore {
  let raced = false;
  return {
    ...delegateTo(store),
    appendToStream: async (...args) => {
      if (!raced) {
        raced = true;
        await competitor();
      }
      return store.appendToStream(...args);
    },
  };
}

const delegateTo = (store: EventStore): EventStore => ({
  appendToStream: (...args) => store.appendToStream(...args),
  readStream: (...args) => store.readStream(...args),
  aggregateStream: (...args) => store.aggregateStream(...args),
  readAll: (...args) => store.readAll(...args),
  readAllPage: (...args) => store.readAllPage(...args),
  waitForAppend: (...args) => store.waitForAppend(...args),
  close: () => store.close(),
});

describe('handleCommand with a fold cache (a long stream, decided without reading it all)', () => {
  let store: InMemoryEventStore;
  let cache: FoldCache<WalletState>;
  const reads = () => (store.readStream as jest.Mock).mock.calls.map(([, options]) => options);

  beforeEach(async () => {
    store = new InMemoryEventStore();
    cache = new FoldCache();
    await handleCommand(store, 'wallet-1', wallet, open, { cache });
    jest.spyOn(store, 'readStream');
  });

  afterEach(() => jest.restoreAllMocks());

  it('decides on the cached state and appends with its revision, reading nothing', async () => {
    for (let n = 1; n <= 5; n++)
      await handleCommand(store, 'wallet-1', wallet, credit(n), { cache });

    expect(reads()).toEqual([]);
    expect(cache.get('wallet-1')).toMatchObject({ state: { balance: 15 }, revision: 5n });
    const { events } = await store.readStream('wallet-1');
    expect(events.map((event) => event.type)).toHaveLength(6);
  });

  it("after another process's append: the conflict reads only what came after, then appends", async () => {
    await handleCommand(store, 'wallet-1', wallet, credit(7)); // no cache: "another process"

    const result = await handleCommand(store, 'wallet-1', wallet, credit(1), { cache });

    expect(result.state).toEqual({ status: 'open', balance: 8 });
    expect(result.nextExpectedRevision).toBe(2n);
    expect(reads()).toEqual([undefined, { fromRevision: 1n }]);
  });

  it('a refusal or a no-op on the cached state is checked against the stream as it is', async () => {
    await handleCommand(store, 'wallet-1', wallet, credit(7)); // another process

    await expect(handleCommand(store, 'wallet-1', wallet, open, { cache })).rejects.toMatchObject({
      code: 'invalid_state',
    });
    const touched = await handleCommand(
      store,
      'wallet-1',
      wallet,
      { type: 'Touch', data: {} },
      {
        cache,
      },
    );

    expect(touched.state).toEqual({ status: 'open', balance: 7 });
    expect(touched.nextExpectedRevision).toBe(1n);
    // The other process read it all; each read here starts after what the cache held.
    expect(reads()).toEqual([undefined, { fromRevision: 1n }, { fromRevision: 2n }]);
  });
});

describe('handleCommand with a fold cache: commands waiting for one turn are decided together', () => {
  let store: InMemoryEventStore;
  let cache: FoldCache<WalletState>;

  beforeEach(async () => {
    store = new InMemoryEventStore();
    cache = new FoldCache();
    await handleCommand(store, 'wallet-1', wallet, open, { cache });
  });

  afterEach(() => jest.restoreAllMocks());

  it('appends what they decided in order, in one append per turn, each told its own events', async () => {
    const append = jest.spyOn(store, 'appendToStream');

    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => handleCommand(store, 'wallet-1', wallet, credit(n), { cache })),
    );

    // The first takes the turn alone; the four that waited for it go in the next one.
    expect(append.mock.calls.map(([, events]) => events.length)).toEqual([1, 4]);
    expect(results.map((result) => (result.state as { balance: number }).balance)).toEqual([
      1, 3, 6, 10, 15,
    ]);
    expect(results.map((result) => result.events.map((event) => event.data))).toEqual(
      [1, 2, 3, 4, 5].map((amount) => [{ amount }]),
    );
    const { events } = await store.readStream('wallet-1');
    expect(events.map((event) => event.data)).toEqual([
      { walletId: 'aw_1' },
      ...[1, 2, 3, 4, 5].map((amount) => ({ amount })),
    ]);
  });

  it("a refusal in the group is that command's alone; the stream is read to confirm it", async () => {
    const read = jest.spyOn(store, 'readStream');

    const [first, refused, last] = await Promise.allSettled([
      handleCommand(store, 'wallet-1', wallet, credit(1), { cache }),
      handleCommand(store, 'wallet-1', wallet, open, { cache }),
      handleCommand(store, 'wallet-1', wallet, credit(2), { cache }),
    ]);

    expect(first).toMatchObject({ status: 'fulfilled', value: { state: { balance: 1 } } });
    expect(refused).toMatchObject({ status: 'rejected', reason: { code: 'invalid_state' } });
    expect(last).toMatchObject({ status: 'fulfilled', value: { state: { balance: 3 } } });
    expect(read.mock.calls.map(([, options]) => options)).toEqual([{ fromRevision: 2n }]);
  });
});

describe('handleCommand creating streams with its events (a wallet credit creating its receipt)', () => {
  let store: InMemoryEventStore;
  const receipts = (events: WalletEvent[]) =>
    events.flatMap((event) =>
      event.type === 'WalletCredited'
        ? [
            {
              streamName: `receipt-${event.data.amount}`,
              events: [{ type: 'ReceiptIssued', data: { amount: event.data.amount } }],
            },
          ]
        : [],
    );

  beforeEach(async () => {
    store = new InMemoryEventStore();
    await handleCommand(store, 'wallet-1', wallet, open);
  });

  it('appends the created streams with the events, and says what it created', async () => {
    const result = await handleCommand(store, 'wallet-1', wallet, credit(7), {
      creating: receipts,
    });

    expect(result.created).toEqual([
      {
        streamName: 'receipt-7',
        events: [
          {
            id: expect.stringMatching(/^[0-9a-f-]{36}$/),
            type: 'ReceiptIssued',
            data: { amount: 7 },
          },
        ],
      },
    ]);
    const [stored] = (await store.readStream('receipt-7')).events;
    expect(stored).toMatchObject({ id: result.created[0]!.events[0]!.id, type: 'ReceiptIssued' });
    expect(result.position >= stored!.position).toBe(true);
  });

  it('after a conflict, decides the creations again on the fresh state, and writes them once', async () => {
    const racing = racedOnce(store, async () => {
      await store.appendToStream('wallet-1', [{ type: 'WalletCredited', data: { amount: 1 } }]);
    });

    const result = await handleCommand(racing, 'wallet-1', wallet, credit(2), {
      creating: receipts,
    });

    expect(result.state).toEqual({ status: 'open', balance: 3 });
    expect(result.created.map(({ streamName }) => streamName)).toEqual(['receipt-2']);
    expect((await store.readStream('receipt-2')).events).toHaveLength(1);
  });

  it('a stream to create that exists fails the command at once: no retry mends it', async () => {
    await store.appendToStream('receipt-5', [{ type: 'ReceiptIssued', data: { amount: 5 } }]);
    const append = jest.spyOn(store, 'appendToStream');

    const error = await handleCommand(store, 'wallet-1', wallet, credit(5), {
      creating: receipts,
    }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ConcurrencyError);
    expect(error).toMatchObject({ streamName: 'receipt-5' });
    expect(append).toHaveBeenCalledTimes(1);
    expect((await store.readStream('wallet-1')).events).toHaveLength(1);
  });
});
