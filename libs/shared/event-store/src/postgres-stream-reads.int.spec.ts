import { randomBytes } from 'node:crypto';
import { watchStatements, type StatementWatch } from '@xaalis/pg-testing';
import type { NewEvent } from './event-store';
import { PostgresEventStore } from './postgres-event-store';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from './testing/pg';

/**
 * Grouped stream reads (postgres-stream-reads.ts): an `aggregateStream` read goes at once when
 * nothing is on its way, those asked for meanwhile share the next SELECT, and each caller folds
 * exactly its own stream, as with a read each.
 */
describeWithPostgres('Postgres grouped stream reads', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let watch: StatementWatch;

  beforeAll(async () => {
    db = await createTestDatabase();
    watch = watchStatements(db.pool, (name) => name.startsWith('es_aggregate_stream'));
  });

  afterAll(async () => {
    await db?.drop();
  });

  beforeEach(() => {
    watch.clear();
    store = new PostgresEventStore(watch.pool);
  });

  afterEach(async () => {
    await store.close();
  });

  /** The types of a stream's events in order, and its revision. */
  const fold = (stream: string) =>
    store.aggregateStream(stream, {
      initialState: (): string[] => [],
      evolve: (types: string[], type: string) => [...types, type],
      asEvent: (fact) => fact.type,
    });

  async function streamOf(...types: string[]): Promise<string> {
    const stream = `reads${randomBytes(6).toString('hex')}-1`;
    await store.appendToStream(
      stream,
      types.map((type) => event(type)),
      { expectedRevision: 'no_stream' },
    );
    return stream;
  }

  it('reads the first stream at once and those asked for meanwhile in one statement', async () => {
    const streams = [
      await streamOf('A'),
      await streamOf('B1', 'B2'),
      await streamOf('C1', 'C2', 'C3'),
      await streamOf('D'),
    ];
    watch.clear();

    const folded = await Promise.all(streams.map(fold));

    expect(watch.statements).toEqual(['es_aggregate_stream', 'es_aggregate_streams']);
    expect(folded).toEqual([
      { state: ['A'], currentRevision: 0n },
      { state: ['B1', 'B2'], currentRevision: 1n },
      { state: ['C1', 'C2', 'C3'], currentRevision: 2n },
      { state: ['D'], currentRevision: 0n },
    ]);
  });

  it('answers a stream that does not exist with no events, in a batch too', async () => {
    const existing = await streamOf('A');
    watch.clear();

    const folded = await Promise.all([fold(existing), fold('reads-none-1'), fold(existing)]);

    expect(watch.statements).toEqual(['es_aggregate_stream', 'es_aggregate_streams']);
    expect(folded).toEqual([
      { state: ['A'], currentRevision: 0n },
      { state: [], currentRevision: undefined },
      { state: ['A'], currentRevision: 0n },
    ]);
  });

  it('gives each caller of a stream asked for twice in one batch its own events', async () => {
    const first = await streamOf('Opened');
    const twice = `reads${randomBytes(6).toString('hex')}-1`;
    await store.appendToStream(twice, [event('Named', { customer: { name: 'Awa' } })], {
      expectedRevision: 'no_stream',
    });
    const dataOf = (stream: string) =>
      store.aggregateStream(stream, {
        initialState: (): unknown => undefined,
        evolve: (_state: unknown, data: unknown) => data,
        asEvent: (fact) => fact.data,
      });

    const [, a, b] = await Promise.all([dataOf(first), dataOf(twice), dataOf(twice)]);

    expect(watch.statements).toEqual(['es_aggregate_stream', 'es_aggregate_streams']);
    expect(a.state).toEqual({ customer: { name: 'Awa' } });
    expect(b.state).toEqual(a.state);
    expect(b.state).not.toBe(a.state);
    expect((b.state as { customer: object }).customer).not.toBe(
      (a.state as { customer: object }).customer,
    );
  });

  it('sees an event appended before the read was asked for, even with a read on its way', async () => {
    const stream = await streamOf('Created');
    watch.clear();

    const before = fold(stream); // on its way
    await store.appendToStream(stream, [event('Paid')], { expectedRevision: 0n });
    const after = await fold(stream); // asked for once the append committed

    expect(after).toEqual({ state: ['Created', 'Paid'], currentRevision: 1n });
    expect((await before).state[0]).toBe('Created');
  });

  it('reads each stream alone when the batch fails before reaching the server', async () => {
    const streams = [await streamOf('A'), await streamOf('B'), await streamOf('C')];
    watch.clear();
    watch.failNext('es_aggregate_streams', new Error('Connection terminated unexpectedly'));

    const folded = await Promise.all(streams.map(fold));

    expect(watch.statements).toEqual([
      'es_aggregate_stream',
      'es_aggregate_streams',
      'es_aggregate_stream',
      'es_aggregate_stream',
    ]);
    expect(folded.map((result) => result.state)).toEqual([['A'], ['B'], ['C']]);
  });
});

const event = (type: string, data: Record<string, unknown> = {}): NewEvent => ({ type, data });
