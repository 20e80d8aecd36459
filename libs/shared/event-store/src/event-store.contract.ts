import { randomBytes, randomUUID } from 'node:crypto';
import {
  ConcurrencyError,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type RecordedEvent,
} from './event-store';

/**
 * The behaviour every EventStore adapter must have (STYLE 3). In a spec:
 *
 *     eventStoreContract('InMemoryEventStore', async () => new InMemoryEventStore());
 *
 * One store serves the whole suite and is closed after it. Each test writes to streams of a
 * category of its own and reads $all through that prefix, so the suite also runs against a store
 * that already holds data (a shared EventStoreDB).
 *
 * `createsInOneTransaction`: whether an append and the streams it creates are written together
 * (false for EventStoreDB, see `AppendOptions.creating`).
 */
export function eventStoreContract(
  name: string,
  createStore: () => Promise<EventStore>,
  { createsInOneTransaction = true }: { createsInOneTransaction?: boolean } = {},
): void {
  describe(`${name} (event store contract)`, () => {
    let store: EventStore;

    beforeAll(async () => {
      store = await createStore();
    });

    afterAll(async () => {
      await store?.close();
    });

    const append = (streamName: string, events: NewEvent[], expectedRevision?: ExpectedRevision) =>
      store.appendToStream(
        streamName,
        events,
        expectedRevision === undefined ? {} : { expectedRevision },
      );

    describe('appendToStream and readStream', () => {
      it('reads back what was appended, in order, with revisions, ids, metadata and positions', async () => {
        const stream = newStream();
        const id = randomUUID();
        const data = {
          amount: 1500,
          currency: 'XOF',
          tags: ['a', 'ß'],
          nested: { ok: true, none: null },
        };
        const result = await append(stream, [
          { id, type: 'PaymentCreated', data, metadata: { correlationId: 'c-1' } },
          { type: 'PaymentSucceeded', data: { at: '2026-11-22T10:00:00.000Z' } },
        ]);

        const { events, currentRevision } = await store.readStream(stream);

        expect(currentRevision).toBe(1n);
        expect(
          events.map(({ streamName, type, data, metadata, revision }) => ({
            streamName,
            type,
            data,
            metadata,
            revision,
          })),
        ).toEqual([
          {
            streamName: stream,
            type: 'PaymentCreated',
            data,
            metadata: { correlationId: 'c-1' },
            revision: 0n,
          },
          {
            streamName: stream,
            type: 'PaymentSucceeded',
            data: { at: '2026-11-22T10:00:00.000Z' },
            metadata: {},
            revision: 1n,
          },
        ]);
        expect(events[0]!.id).toBe(id);
        expect(events[1]!.id).toMatch(LOWERCASE_UUID);
        expect(events[0]!.position < events[1]!.position).toBe(true);
        expect(result).toEqual({ nextExpectedRevision: 1n, position: events[1]!.position });
        for (const event of events) {
          expect(event.createdAt).toBeInstanceOf(Date);
          expect(Math.abs(event.createdAt.getTime() - Date.now())).toBeLessThan(5 * 60_000);
        }
      });

      it('reads a missing stream as no events and no revision', async () => {
        const missing = newStream();
        for (const options of [{}, { fromRevision: 5n }, { maxCount: 3 }]) {
          await expect(store.readStream(missing, options)).resolves.toEqual({
            events: [],
            currentRevision: undefined,
          });
        }
      });

      it('reads from a revision, up to maxCount, and still reports the current revision', async () => {
        const stream = newStream();
        await append(stream, [event('E0'), event('E1'), event('E2'), event('E3')]);

        const middle = await store.readStream(stream, { fromRevision: 1n, maxCount: 2 });
        const tail = await store.readStream(stream, { fromRevision: 3n });
        const beyond = await store.readStream(stream, { fromRevision: 9n });

        expect(middle.events.map((e) => [e.type, e.revision])).toEqual([
          ['E1', 1n],
          ['E2', 2n],
        ]);
        expect(middle.currentRevision).toBe(3n);
        expect(tail.events.map((e) => e.type)).toEqual(['E3']);
        expect(tail.currentRevision).toBe(3n);
        expect(beyond).toEqual({ events: [], currentRevision: 3n });
      });

      it('refuses an empty batch, a malformed id, a repeated id and a $ stream', async () => {
        const stream = newStream();
        const id = randomUUID();
        await expect(append(stream, [])).rejects.toThrow(TypeError);
        await expect(append(stream, [{ id: 'not-a-uuid', type: 'E', data: {} }])).rejects.toThrow(
          TypeError,
        );
        await expect(
          append(stream, [
            { id, type: 'E', data: {} },
            { id, type: 'E', data: {} },
          ]),
        ).rejects.toThrow(TypeError);
        await expect(append('$system-1', [event('E')])).rejects.toThrow(TypeError);
        await expect(store.readStream(stream)).resolves.toEqual({
          events: [],
          currentRevision: undefined,
        });
      });
    });

    describe('aggregateStream', () => {
      /** A fold that keeps the types it knows, in order, and sums their amounts. */
      const ledger = {
        initialState: () => ({ types: [] as string[], total: 0 }),
        evolve: (
          state: { types: string[]; total: number },
          e: { type: string; amount: number },
        ) => ({
          types: [...state.types, e.type],
          total: state.total + e.amount,
        }),
        asEvent: ({ type, data }: { type: string; data: unknown }) =>
          type === 'Unknown' ? undefined : { type, amount: (data as { amount: number }).amount },
      };

      it('folds the whole stream in order, skipping what the fold does not know', async () => {
        const stream = newStream();
        await append(stream, [
          event('Credited', { amount: 500 }),
          event('Unknown', { amount: 1_000_000 }),
          event('Debited', { amount: -200 }),
        ]);
        await append(stream, [event('Credited', { amount: 50 })]);

        await expect(store.aggregateStream(stream, ledger)).resolves.toEqual({
          state: { types: ['Credited', 'Debited', 'Credited'], total: 350 },
          currentRevision: 3n,
        });
      });

      it('gives the initial state and no revision for a missing stream', async () => {
        await expect(store.aggregateStream(newStream(), ledger)).resolves.toEqual({
          state: { types: [], total: 0 },
          currentRevision: undefined,
        });
      });

      it('agrees with folding what readStream reads', async () => {
        const stream = newStream();
        const amounts = Array.from({ length: 25 }, (_, i) => (i % 3) * 100 - 50);
        await append(
          stream,
          amounts.map((amount, i) => event(i % 7 === 0 ? 'Unknown' : 'Moved', { amount })),
        );
        const read = await store.readStream(stream);
        const folded = read.events.reduce((state, recorded) => {
          const e = ledger.asEvent(recorded);
          return e === undefined ? state : ledger.evolve(state, e);
        }, ledger.initialState());

        await expect(store.aggregateStream(stream, ledger)).resolves.toEqual({
          state: folded,
          currentRevision: read.currentRevision,
        });
      });
    });

    describe('expected revision', () => {
      it('no_stream: creates the stream, then conflicts', async () => {
        const stream = newStream();
        await expect(append(stream, [event('E')], 'no_stream')).resolves.toMatchObject({
          nextExpectedRevision: 0n,
        });
        await expectConcurrencyError(
          append(stream, [event('E')], 'no_stream'),
          stream,
          'no_stream',
          0n,
        );
      });

      it('stream_exists: conflicts on a missing stream, appends to an existing one', async () => {
        const stream = newStream();
        await expectConcurrencyError(
          append(stream, [event('E')], 'stream_exists'),
          stream,
          'stream_exists',
          undefined,
        );
        await append(stream, [event('E')]);
        await expect(append(stream, [event('E')], 'stream_exists')).resolves.toMatchObject({
          nextExpectedRevision: 1n,
        });
      });

      it('any (also the default): appends whatever the stream holds', async () => {
        const stream = newStream();
        await expect(append(stream, [event('E')], 'any')).resolves.toMatchObject({
          nextExpectedRevision: 0n,
        });
        await expect(append(stream, [event('E')], 'any')).resolves.toMatchObject({
          nextExpectedRevision: 1n,
        });
        await expect(append(stream, [event('E'), event('E')])).resolves.toMatchObject({
          nextExpectedRevision: 3n,
        });
      });

      it('exact: appends at that revision only', async () => {
        const stream = newStream();
        await expectConcurrencyError(append(stream, [event('E')], 0n), stream, 0n, undefined);
        await append(stream, [event('E'), event('E')], 'no_stream');

        await expectConcurrencyError(append(stream, [event('E')], 0n), stream, 0n, 1n);
        await expectConcurrencyError(append(stream, [event('E')], 2n), stream, 2n, 1n);
        await expect(append(stream, [event('E')], 1n)).resolves.toMatchObject({
          nextExpectedRevision: 2n,
        });
        expect((await store.readStream(stream)).currentRevision).toBe(2n);
      });

      it('appends nothing when the check fails', async () => {
        const stream = newStream();
        await append(stream, [event('Kept')]);
        await expect(append(stream, [event('Refused'), event('Refused')], 5n)).rejects.toThrow(
          ConcurrencyError,
        );
        expect((await store.readStream(stream)).events.map((e) => e.type)).toEqual(['Kept']);
      });
    });

    describe('concurrent appenders', () => {
      it('exactly one of the appenders expecting the same revision wins', async () => {
        const stream = newStream();
        await append(stream, [event('Opened')], 'no_stream');

        const results = await Promise.allSettled(
          Array.from({ length: 8 }, (_, i) =>
            append(stream, [event('Raced', { i }), event('Raced', { i })], 0n),
          ),
        );

        const won = results.filter((r) => r.status === 'fulfilled');
        const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
        expect(won).toHaveLength(1);
        expect(won[0]).toMatchObject({ value: { nextExpectedRevision: 2n } });
        expect(lost).toHaveLength(7);
        for (const { reason } of lost) {
          expect(reason).toBeInstanceOf(ConcurrencyError);
          expect(reason).toMatchObject({ streamName: stream, expected: 0n, actual: 2n });
        }
        const { events } = await store.readStream(stream);
        expect(events.map((e) => e.type)).toEqual(['Opened', 'Raced', 'Raced']);
        expect(events[1]!.data).toEqual(events[2]!.data);
      });

      it('exactly one of the appenders creating the stream wins', async () => {
        const stream = newStream();
        const results = await Promise.allSettled(
          Array.from({ length: 8 }, (_, i) =>
            append(stream, [event('Created', { i })], 'no_stream'),
          ),
        );
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        for (const result of results.filter(
          (r): r is PromiseRejectedResult => r.status === 'rejected',
        )) {
          expect(result.reason).toMatchObject({
            name: 'ConcurrencyError',
            expected: 'no_stream',
            actual: 0n,
          });
        }
        expect((await store.readStream(stream)).events).toHaveLength(1);
      });

      it('appenders with any never conflict and get distinct revisions', async () => {
        const stream = newStream();
        const results = await Promise.all(
          Array.from({ length: 8 }, (_, i) => append(stream, [event('Any', { i })], 'any')),
        );
        expect(results.map((r) => r.nextExpectedRevision).sort()).toEqual([
          0n,
          1n,
          2n,
          3n,
          4n,
          5n,
          6n,
          7n,
        ]);
        const { events } = await store.readStream(stream);
        expect(events.map((e) => (e.data as { i: number }).i).sort()).toEqual([
          0, 1, 2, 3, 4, 5, 6, 7,
        ]);
      });
    });

    describe('idempotent retries (same event ids)', () => {
      it('a retry with the same expected revision succeeds without appending again', async () => {
        const stream = newStream();
        await append(stream, [event('Opened')], 'no_stream');
        const batch = [event('A'), event('B')].map(withId);

        const original = await append(stream, batch, 0n);
        const retried = await append(stream, batch, 0n);

        expect(retried).toEqual(original);
        expect((await store.readStream(stream)).events.map((e) => e.type)).toEqual([
          'Opened',
          'A',
          'B',
        ]);
      });

      it('a retry is recognised even after later appends', async () => {
        const stream = newStream();
        const batch = [event('A')].map(withId);
        const original = await append(stream, batch, 'no_stream');
        await append(stream, [event('Later')], 0n);

        await expect(append(stream, batch, 'no_stream')).resolves.toEqual(original);
        expect((await store.readStream(stream)).events.map((e) => e.type)).toEqual(['A', 'Later']);
      });

      it('a retry with any succeeds without appending again', async () => {
        const stream = newStream();
        await append(stream, [event('Opened')]);
        const batch = [event('A'), event('B')].map(withId);

        const original = await append(stream, batch, 'any');
        await expect(append(stream, batch, 'any')).resolves.toEqual(original);
        expect((await store.readStream(stream)).events).toHaveLength(3);
      });
    });

    describe('an append that creates streams (creating)', () => {
      const typesOf = async (stream: string) =>
        (await store.readStream(stream)).events.map((e) => e.type);

      it('writes the new streams with the append; its position is the last of them all', async () => {
        const category = newCategory();
        const [wallet, first, second] = [1, 2, 3].map((n) => `${category}-${n}`) as [
          string,
          string,
          string,
        ];
        await append(wallet, [event('Opened')], 'no_stream');
        const result = await store.appendToStream(wallet, [event('Accepted'), event('Accepted')], {
          expectedRevision: 0n,
          creating: [
            { streamName: first, events: [event('Created'), event('Started')] },
            { streamName: second, events: [event('Created')] },
          ],
        });

        expect(result.nextExpectedRevision).toBe(2n);
        expect(await typesOf(wallet)).toEqual(['Opened', 'Accepted', 'Accepted']);
        expect(await typesOf(first)).toEqual(['Created', 'Started']);
        expect(await typesOf(second)).toEqual(['Created']);
        const written = await readAllEventually(store, { streamPrefixes: [`${category}-`] }, 6);
        expect(written.every((e) => e.position <= result.position)).toBe(true);
        expect(written.map((e) => e.position)).toContain(result.position);
      });

      it('with no_stream too; a retry with the same ids writes nothing more', async () => {
        const category = newCategory();
        const created = { streamName: `${category}-2`, events: [event('Created')].map(withId) };
        const batch = [event('Opened')].map(withId);
        const options = { expectedRevision: 'no_stream' as const, creating: [created] };

        const original = await store.appendToStream(`${category}-1`, batch, options);
        const retried = await store.appendToStream(`${category}-1`, batch, options);

        expect(retried).toEqual(original);
        expect(await typesOf(`${category}-1`)).toEqual(['Opened']);
        expect(await typesOf(`${category}-2`)).toEqual(['Created']);
      });

      it('writes none of them when the expected revision does not hold', async () => {
        const category = newCategory();
        await append(`${category}-1`, [event('Opened'), event('Accepted')], 'no_stream');
        const attempt = store.appendToStream(`${category}-1`, [event('Accepted')], {
          expectedRevision: 0n,
          creating: [{ streamName: `${category}-2`, events: [event('Created')] }],
        });

        await expectConcurrencyError(attempt, `${category}-1`, 0n, 1n);
        expect(await typesOf(`${category}-1`)).toEqual(['Opened', 'Accepted']);
        expect(await typesOf(`${category}-2`)).toEqual([]);
      });

      it('a stream to create that exists is a conflict on it, and stays as it was', async () => {
        const category = newCategory();
        await append(`${category}-1`, [event('Opened')], 'no_stream');
        await append(`${category}-2`, [event('There')], 'no_stream');
        const attempt = store.appendToStream(`${category}-1`, [event('Accepted')], {
          expectedRevision: 0n,
          creating: [{ streamName: `${category}-2`, events: [event('Created')] }],
        });

        await expectConcurrencyError(attempt, `${category}-2`, 'no_stream', 0n);
        expect(await typesOf(`${category}-2`)).toEqual(['There']);
        if (createsInOneTransaction) expect(await typesOf(`${category}-1`)).toEqual(['Opened']);
      });

      it('is refused with an expectation other than exact or no_stream, or a stream named twice', async () => {
        const category = newCategory();
        const creating = [{ streamName: `${category}-2`, events: [event('Created')] }];
        for (const expectedRevision of ['any', 'stream_exists'] as const) {
          await expect(
            store.appendToStream(`${category}-1`, [event('E')], { expectedRevision, creating }),
          ).rejects.toThrow(TypeError);
        }
        await expect(
          store.appendToStream(`${category}-1`, [event('E')], {
            expectedRevision: 'no_stream',
            creating: [...creating, ...creating],
          }),
        ).rejects.toThrow(TypeError);
        expect(await typesOf(`${category}-1`)).toEqual([]);
        expect(await typesOf(`${category}-2`)).toEqual([]);
      });
    });

    describe('readAll', () => {
      it('returns the events of all streams in append order, after a checkpoint, up to maxCount', async () => {
        const category = newCategory();
        const [a, b] = [`${category}a-1`, `${category}b-1`];
        await append(a, [event('E1')]);
        await append(b, [event('E2')]);
        await append(a, [event('E3'), event('E4')]);

        const all = await readAllEventually(store, { streamPrefixes: [category] }, 4);

        expect(all.map((e) => [e.streamName, e.type, e.revision])).toEqual([
          [a, 'E1', 0n],
          [b, 'E2', 0n],
          [a, 'E3', 1n],
          [a, 'E4', 2n],
        ]);
        all.slice(1).forEach((e, i) => expect(all[i]!.position < e.position).toBe(true));
        const types = async (options: ReadAllOptions) =>
          (await store.readAll(options)).map((e) => e.type);
        expect(await types({ streamPrefixes: [category], after: all[1]!.position })).toEqual([
          'E3',
          'E4',
        ]);
        expect(await types({ streamPrefixes: [category], maxCount: 2 })).toEqual(['E1', 'E2']);
        expect(
          await types({ streamPrefixes: [category], after: all[0]!.position, maxCount: 2 }),
        ).toEqual(['E2', 'E3']);
        expect(await types({ streamPrefixes: [category], after: all[3]!.position })).toEqual([]);
        expect(await types({ streamPrefixes: [category], after: null, maxCount: 1 })).toEqual([
          'E1',
        ]);
        expect(
          (await store.readAll({ after: all[0]!.position })).slice(0, 3).map((e) => e.type),
        ).toEqual(['E2', 'E3', 'E4']);
      });

      it('filters by stream prefixes', async () => {
        const category = newCategory();
        await append(`${category}pay-1`, [event('P1')]);
        await append(`${category}mer-1`, [event('M1')]);
        await append(`${category}sub-1`, [event('S1')]);
        await append(`${category}pay-2`, [event('P2')]);
        await readAllEventually(store, { streamPrefixes: [category] }, 4);
        const types = async (streamPrefixes: string[]) =>
          (await store.readAll({ streamPrefixes })).map((e) => e.type);

        expect(await types([`${category}pay-`])).toEqual(['P1', 'P2']);
        expect(await types([`${category}pay-`, `${category}sub-`])).toEqual(['P1', 'S1', 'P2']);
        expect(await types([`${category}nothing-`])).toEqual([]);
        expect(await types([])).toEqual([]);
      });

      it('returns the same event as readStream, position included', async () => {
        const stream = newStream();
        const { position } = await append(stream, [event('Same', { n: 1 }, { why: 'test' })]);
        const [fromStream] = (await store.readStream(stream)).events;
        const fromAll = await readAllEventually(store, { streamPrefixes: [stream] }, 1);
        expect(fromAll).toEqual([fromStream]);
        expect(fromAll[0]!.position).toBe(position);
      });

      it('reads nothing with maxCount 0', async () => {
        await expect(store.readAll({ maxCount: 0 })).resolves.toEqual([]);
      });
    });

    describe('readAllPage', () => {
      /** A category's events: `start`, a merchant's, then two payments'; all readable. */
      async function merchantAmongPayments() {
        const category = newCategory();
        const start = await append(`${category}start`, [event('Start')]);
        await append(`${category}mer-1`, [event('M1')]);
        await append(`${category}pay-1`, [event('P1')]);
        const last = await append(`${category}pay-2`, [event('P2')]);
        await readAllEventually(store, { streamPrefixes: [category] }, 4);
        return { category, after: start.position, last: last.position };
      }

      it('returns what readAll returns, and a position past the other streams’ events', async () => {
        const { category, after, last } = await merchantAmongPayments();
        const options = { after, streamPrefixes: [`${category}mer-`], maxCount: 10 };

        const page = await store.readAllPage(options);

        expect(page.events).toEqual(await store.readAll(options));
        expect(page.events.map((e) => e.type)).toEqual(['M1']);
        expect(page.position! >= last).toBe(true);
        await expect(
          store.readAll({ after: page.position, streamPrefixes: [category] }),
        ).resolves.toEqual([]);
      });

      it('ends a full page at its last event, and the next page goes on from there', async () => {
        const { category, after, last } = await merchantAmongPayments();
        const payments = { streamPrefixes: [`${category}pay-`], maxCount: 1 };

        const first = await store.readAllPage({ ...payments, after });
        const second = await store.readAllPage({ ...payments, after: first.position });

        expect(first.events.map((e) => e.type)).toEqual(['P1']);
        expect(first.position).toBe(first.events[0]!.position);
        expect(second.events.map((e) => e.type)).toEqual(['P2']);
        expect(second.position).toBe(last);
      });

      it('moves past everything readable when nothing matches, and never back', async () => {
        const { category, after, last } = await merchantAmongPayments();
        const nothing = { streamPrefixes: [`${category}nothing-`] };

        const page = await store.readAllPage({ ...nothing, after });
        const later = await store.readAllPage({ ...nothing, after: page.position });

        expect(page.events).toEqual([]);
        expect(page.position! >= last).toBe(true);
        expect(later.events).toEqual([]);
        expect(later.position! >= page.position!).toBe(true);
      });

      it('reads nothing and stays where it was with maxCount 0', async () => {
        const { category, after } = await merchantAmongPayments();

        await expect(
          store.readAllPage({ after, maxCount: 0, streamPrefixes: [category] }),
        ).resolves.toEqual({ events: [], position: after });
        await expect(store.readAllPage({ after, maxCount: 0 })).resolves.toEqual({
          events: [],
          position: after,
        });
      });

      it('pages every stream alike without prefixes', async () => {
        const { after } = await merchantAmongPayments();

        const page = await store.readAllPage({ after, maxCount: 2 });

        expect(page.events).toEqual(await store.readAll({ after, maxCount: 2 }));
        expect(page.events.map((e) => e.type)).toEqual(['M1', 'P1']);
        expect(page.position).toBe(page.events[1]!.position);
      });
    });

    describe('waitForAppend', () => {
      it('resolves at once when an event after the checkpoint is there already', async () => {
        const stream = newStream();
        const first = await append(stream, [event('First')]);
        await append(stream, [event('Second')]);

        expect(await elapsed(() => store.waitForAppend(first.position, 20_000))).toBeLessThan(
          10_000,
        );
      });

      it('wakes up when an event is appended', async () => {
        const { position } = await append(newStream(), [event('Before')]);
        let woke = false;
        const started = Date.now();
        const waiting = store.waitForAppend(position, 20_000).then(() => {
          woke = true;
        });

        await sleep(150);
        expect(woke).toBe(false);
        await append(newStream(), [event('After')]);
        await waiting;
        expect(Date.now() - started).toBeLessThan(10_000);
      });

      it('times out when nothing is appended', async () => {
        const { position } = await append(newStream(), [event('Last')]);
        await sleep(100);
        const took = await elapsed(() => store.waitForAppend(position, 400));
        expect(took).toBeGreaterThanOrEqual(350);
        expect(took).toBeLessThan(5_000);
      });

      it('with stream prefixes, resolves at once when one of those streams moved already', async () => {
        const [read, unread] = [newCategory(), newCategory()];
        const { position } = await append(`${unread}-1`, [event('Unread')]);
        await append(`${read}-1`, [event('Read')]);

        expect(
          await elapsed(() => store.waitForAppend(position, 20_000, undefined, [`${read}-`])),
        ).toBeLessThan(10_000);
      });

      it('with stream prefixes, sleeps through appends to other streams and wakes for its own', async () => {
        const [read, unread] = [newCategory(), newCategory()];
        const { position } = await append(`${unread}-1`, [event('Unread')]);
        let woke = false;
        const waiting = store
          .waitForAppend(position, 20_000, undefined, [`${read}-`])
          .then(() => (woke = true));

        await append(`${unread}-2`, [event('Unread')]);
        await sleep(300);
        expect(woke).toBe(false);
        await append(`${read}-1`, [event('Read')]);
        expect(await elapsed(() => waiting)).toBeLessThan(10_000);
      });

      it('resolves when the signal aborts', async () => {
        const { position } = await append(newStream(), [event('Last')]);
        const aborted = new AbortController();
        aborted.abort();
        expect(
          await elapsed(() => store.waitForAppend(position, 20_000, aborted.signal)),
        ).toBeLessThan(1_000);

        const later = new AbortController();
        setTimeout(() => later.abort(), 100);
        expect(
          await elapsed(() => store.waitForAppend(position, 20_000, later.signal)),
        ).toBeLessThan(5_000);
      });
    });
  });
}

const LOWERCASE_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A category no other test (or earlier run against a shared store) has used. */
const newCategory = () => `contract${randomBytes(6).toString('hex')}`;
const newStream = () => `${newCategory()}-1`;

const event = (
  type: string,
  data: Record<string, unknown> = {},
  metadata?: Record<string, unknown>,
): NewEvent => (metadata === undefined ? { type, data } : { type, data, metadata });

const withId = (e: NewEvent): NewEvent => ({ ...e, id: randomUUID() });

async function expectConcurrencyError(
  attempt: Promise<unknown>,
  streamName: string,
  expected: ExpectedRevision,
  actual: bigint | undefined,
): Promise<void> {
  const error = await attempt.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ConcurrencyError);
  expect(error).toMatchObject({ streamName, expected, actual });
}

/**
 * readAll until it holds `count` events. Postgres holds back events while any older transaction
 * of the cluster is open (other suites may run meanwhile), so "appended" and "readable by
 * readAll" are a moment apart there.
 */
async function readAllEventually(
  store: EventStore,
  options: ReadAllOptions,
  count: number,
): Promise<RecordedEvent[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const events = await store.readAll(options);
    if (events.length >= count || Date.now() > deadline) return events;
    await sleep(20);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function elapsed(action: () => Promise<unknown>): Promise<number> {
  const started = Date.now();
  await action();
  return Date.now() - started;
}
