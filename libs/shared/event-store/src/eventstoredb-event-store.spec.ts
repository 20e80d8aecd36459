import { EventEmitter } from 'node:events';
import {
  ANY,
  BACKWARDS,
  DeadlineExceededError,
  END,
  FORWARDS,
  NO_STREAM,
  NotLeaderError,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  UnavailableError,
  WrongExpectedVersionError,
  type EventStoreDBClient,
} from '@eventstore/db-client';
import { unreachableStoreError } from '@xaalis/kernel';
import { ConcurrencyError } from './event-store';
import { EventStoreDbEventStore } from './eventstoredb-event-store';

// The mapping onto the client, against a stand-in client: the contract suite needs a server
// (eventstoredb-event-store.int.spec.ts, EVENTSTORE_URL).

interface FakeRecord {
  streamId: string;
  id: string;
  revision: bigint;
  type: string;
  data: unknown;
  metadata: unknown;
  isJson: true;
  created: Date;
  position: { commit: bigint; prepare: bigint };
}

const created = new Date('2026-11-22T10:00:00.000Z');
let sequence = 0;
const record = (
  streamId: string,
  revision: bigint,
  type = 'Happened',
  metadata: unknown = { by: 'test' },
): FakeRecord => {
  sequence += 100;
  return {
    streamId,
    id: `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`,
    revision,
    type,
    data: { revision: Number(revision) },
    metadata,
    isJson: true,
    created,
    position: { commit: BigInt(sequence), prepare: BigInt(sequence) },
  };
};
const pos = (r: FakeRecord) =>
  `${String(r.position.commit).padStart(20, '0')}/${String(r.position.prepare).padStart(20, '0')}`;

async function* resolvedOf(records: FakeRecord[], failWith?: Error) {
  if (failWith) throw failWith;
  for (const event of records) yield { event };
}

function fakeClient() {
  return {
    appendToStream: jest.fn(),
    readStream: jest.fn(),
    readAll: jest.fn(),
    subscribeToAll: jest.fn(),
    dispose: jest.fn(async () => undefined),
  };
}

type Fake = ReturnType<typeof fakeClient>;
const storeOver = (client: Fake, options = {}) =>
  new EventStoreDbEventStore(client as unknown as EventStoreDBClient, options);

describe('EventStoreDbEventStore (against a stand-in client)', () => {
  describe('appendToStream', () => {
    it.each([
      ['any', ANY],
      ['no_stream', NO_STREAM],
      ['stream_exists', STREAM_EXISTS],
      [4n, 4n],
    ] as const)(
      'sends expected revision %s as %s, with our ids, and returns the last event’s position',
      async (ours, theirs) => {
        const client = fakeClient();
        const last = record('payment-1', 5n);
        client.appendToStream.mockResolvedValue({
          success: true,
          nextExpectedRevision: 5n,
          position: { commit: 1n, prepare: 1n },
        });
        client.readStream.mockReturnValue(resolvedOf([last]));
        const id = '0a1b2c3d-0000-4000-8000-00000000000a';

        const result = await storeOver(client).appendToStream(
          'payment-1',
          [{ id: id.toUpperCase(), type: 'PaymentCreated', data: { amount: 5 } }],
          { expectedRevision: ours },
        );

        expect(client.appendToStream).toHaveBeenCalledWith(
          'payment-1',
          [
            {
              id,
              contentType: 'application/json',
              type: 'PaymentCreated',
              data: { amount: 5 },
              metadata: {},
            },
          ],
          { expectedRevision: theirs },
        );
        expect(client.readStream).toHaveBeenCalledWith('payment-1', {
          fromRevision: 5n,
          maxCount: 1,
        });
        expect(result).toEqual({ nextExpectedRevision: 5n, position: pos(last) });
      },
    );

    it('turns WrongExpectedVersionError into ConcurrencyError', async () => {
      const client = fakeClient();
      const store = storeOver(client);
      client.appendToStream.mockRejectedValueOnce(
        new WrongExpectedVersionError(undefined, {
          streamName: 'payment-1',
          expected: 1n,
          current: 3n,
        }),
      );
      client.appendToStream.mockRejectedValueOnce(
        new WrongExpectedVersionError(undefined, {
          streamName: 'payment-2',
          expected: STREAM_EXISTS,
          current: NO_STREAM,
        }),
      );

      const first = await store
        .appendToStream('payment-1', [{ type: 'E', data: {} }], { expectedRevision: 1n })
        .catch((e) => e);
      const second = await store
        .appendToStream('payment-2', [{ type: 'E', data: {} }], {
          expectedRevision: 'stream_exists',
        })
        .catch((e) => e);

      expect(first).toBeInstanceOf(ConcurrencyError);
      expect(first).toMatchObject({ streamName: 'payment-1', expected: 1n, actual: 3n });
      expect(second).toBeInstanceOf(ConcurrencyError);
      expect(second).toMatchObject({
        streamName: 'payment-2',
        expected: 'stream_exists',
        actual: undefined,
      });
    });
  });

  describe('readStream', () => {
    it('reads a missing stream as no events and no revision', async () => {
      const client = fakeClient();
      client.readStream.mockReturnValue(
        resolvedOf([], new StreamNotFoundError(undefined, 'payment-9')),
      );

      await expect(storeOver(client).readStream('payment-9')).resolves.toEqual({
        events: [],
        currentRevision: undefined,
      });
    });

    it('maps events, and takes the current revision from a read to the end', async () => {
      const client = fakeClient();
      // EventStoreDB gives undefined for empty metadata, bytes for metadata that is not JSON.
      const records = [
        record('payment-1', 0n),
        { ...record('payment-1', 1n, 'Paid'), metadata: undefined },
        record('payment-1', 2n, 'Raw', new Uint8Array([1, 2])),
      ];
      client.readStream.mockReturnValue(resolvedOf(records));

      const result = await storeOver(client).readStream('payment-1');

      expect(client.readStream).toHaveBeenCalledTimes(1);
      expect(client.readStream).toHaveBeenCalledWith('payment-1', {
        direction: FORWARDS,
        fromRevision: START,
        maxCount: Number.MAX_SAFE_INTEGER,
      });
      expect(result).toEqual({
        currentRevision: 2n,
        events: [
          {
            id: records[0]!.id,
            streamName: 'payment-1',
            type: 'Happened',
            data: { revision: 0 },
            metadata: { by: 'test' },
            revision: 0n,
            position: pos(records[0]!),
            createdAt: created,
          },
          expect.objectContaining({ type: 'Paid', metadata: {}, revision: 1n }),
          expect.objectContaining({ type: 'Raw', metadata: {}, revision: 2n }),
        ],
      });
    });

    it('asks for the current revision after a partial read', async () => {
      const client = fakeClient();
      client.readStream.mockReturnValueOnce(resolvedOf([record('payment-1', 1n)]));
      client.readStream.mockReturnValueOnce(resolvedOf([record('payment-1', 7n)]));

      const result = await storeOver(client).readStream('payment-1', {
        fromRevision: 1n,
        maxCount: 1,
      });

      expect(client.readStream).toHaveBeenLastCalledWith('payment-1', {
        direction: BACKWARDS,
        fromRevision: END,
        maxCount: 1,
      });
      expect(result.currentRevision).toBe(7n);
      expect(result.events.map((e) => e.revision)).toEqual([1n]);
    });
  });

  describe('readAll', () => {
    it('pages through $all, skipping system events, other streams and the checkpoint itself', async () => {
      const client = fakeClient();
      const r = [
        record('payment-1', 0n),
        record('$stats-1', 0n),
        record('merchant-1', 0n),
        record('payment-1', 1n, '$metadata'),
        record('payment-2', 0n),
        record('payment-1', 2n),
      ];
      // Pages of 2; each page starts at (and includes) the last position of the one before.
      client.readAll
        .mockReturnValueOnce(resolvedOf([r[0]!, r[1]!]))
        .mockReturnValueOnce(resolvedOf([r[1]!, r[2]!]))
        .mockReturnValueOnce(resolvedOf([r[2]!, r[3]!]))
        .mockReturnValueOnce(resolvedOf([r[3]!, r[4]!]))
        .mockReturnValueOnce(resolvedOf([r[4]!, r[5]!]))
        .mockReturnValueOnce(resolvedOf([r[5]!]));

      const events = await storeOver(client, { readAllPageSize: 2 }).readAll({
        after: pos(r[0]!),
        streamPrefixes: ['payment-'],
      });

      expect(events.map((e) => [e.streamName, e.revision])).toEqual([
        ['payment-2', 0n],
        ['payment-1', 2n],
      ]);
      expect(client.readAll.mock.calls[0]![0]).toEqual({
        direction: FORWARDS,
        fromPosition: r[0]!.position,
        maxCount: 2,
      });
      expect(client.readAll.mock.calls[1]![0]).toMatchObject({ fromPosition: r[1]!.position });
    });

    it('stops at maxCount', async () => {
      const client = fakeClient();
      client.readAll.mockReturnValueOnce(
        resolvedOf([record('a-1', 0n), record('a-1', 1n), record('a-1', 2n)]),
      );

      const events = await storeOver(client).readAll({ maxCount: 2 });

      expect(events.map((e) => e.revision)).toEqual([0n, 1n]);
      expect(client.readAll).toHaveBeenCalledWith({
        direction: FORWARDS,
        fromPosition: START,
        maxCount: 500,
      });
    });
  });

  describe('waitForAppend', () => {
    const subscription = () =>
      Object.assign(new EventEmitter(), { unsubscribe: jest.fn(async () => undefined) });

    it('resolves at the first user event after the checkpoint, and unsubscribes', async () => {
      const client = fakeClient();
      const sub = subscription();
      client.subscribeToAll.mockReturnValue(sub);
      const seen = record('payment-1', 0n);
      let woke = false;

      const waiting = storeOver(client)
        .waitForAppend(pos(seen), 10_000)
        .then(() => (woke = true));
      sub.emit('data', { event: seen });
      sub.emit('data', { event: record('$stats-1', 0n) });
      await Promise.resolve();
      expect(woke).toBe(false);
      sub.emit('data', { event: record('payment-1', 1n) });
      await waiting;

      expect(client.subscribeToAll).toHaveBeenCalledWith(
        expect.objectContaining({
          fromPosition: seen.position,
          filter: expect.objectContaining({ filterOn: 'eventType' }),
        }),
      );
      expect(sub.unsubscribe).toHaveBeenCalled();
    });

    it('with stream prefixes, resolves only at an event of those streams', async () => {
      const client = fakeClient();
      const sub = subscription();
      client.subscribeToAll.mockReturnValue(sub);
      const seen = record('payment-1', 0n);
      let woke = false;

      const waiting = storeOver(client)
        .waitForAppend(pos(seen), 10_000, undefined, ['payout-'])
        .then(() => (woke = true));
      sub.emit('data', { event: record('payment-1', 1n) });
      await Promise.resolve();
      expect(woke).toBe(false);
      sub.emit('data', { event: record('payout-1', 0n) });
      await waiting;
      expect(sub.unsubscribe).toHaveBeenCalled();
    });

    it('resolves after the timeout, or when the signal aborts, or when the subscription fails', async () => {
      const client = fakeClient();
      const store = storeOver(client);
      const subs = [subscription(), subscription(), subscription()];
      client.subscribeToAll
        .mockReturnValueOnce(subs[0])
        .mockReturnValueOnce(subs[1])
        .mockReturnValueOnce(subs[2]);

      const started = Date.now();
      await store.waitForAppend(null, 50);
      expect(Date.now() - started).toBeGreaterThanOrEqual(45);

      const abort = new AbortController();
      const aborted = store.waitForAppend(null, 10_000, abort.signal);
      abort.abort();
      await aborted;

      const failed = store.waitForAppend(null, 10_000);
      subs[2]!.emit('error', new Error('connection lost'));
      await failed;

      for (const sub of subs) expect(sub.unsubscribe).toHaveBeenCalled();
    });
  });

  it('disposes of the client on close only when it owns it', async () => {
    const given = fakeClient();
    const owned = fakeClient();
    await storeOver(given).close();
    await storeOver(owned, { ownsClient: true }).close();
    expect(given.dispose).not.toHaveBeenCalled();
    expect(owned.dispose).toHaveBeenCalled();
  });

  it('lets the edge answer 503 when the server is out of reach, and only then', () => {
    const grpc = { code: 14, message: '14 UNAVAILABLE: No connection established' };

    for (const outOfReach of [
      new UnavailableError(grpc as never),
      new DeadlineExceededError({ code: 4, message: '4 DEADLINE_EXCEEDED' } as never),
      new NotLeaderError({
        code: 5,
        message: 'Leader info available',
        metadata: {
          getMap: () => ({ 'leader-endpoint-host': 'node-2', 'leader-endpoint-port': '2113' }),
        },
      } as never),
    ]) {
      expect(unreachableStoreError(outOfReach)?.code).toBe('unavailable');
    }
    expect(unreachableStoreError(new StreamNotFoundError(undefined, 'payment-1'))).toBeUndefined();
  });
});
