import { randomBytes } from 'node:crypto';
import type { NewEvent } from './event-store';
import { describeWithPostgres, useWatchedStore } from './testing/pg';

/**
 * Grouped stream reads (PostgresEventStore's lane for `aggregateStream`): a read goes at once when
 * nothing is on its way, those asked for meanwhile share the next statement (the same one,
 * `es_read_streams`, with longer arrays), and each caller folds exactly its own stream, as with a
 * read each.
 */
describeWithPostgres('Postgres grouped stream reads', () => {
  const suite = useWatchedStore((name) => name === 'es_read_streams');

  /** The types of a stream's events in order, and its revision. */
  const fold = (stream: string) =>
    suite.store.aggregateStream(stream, {
      initialState: (): string[] => [],
      evolve: (types: string[], type: string) => [...types, type],
      asEvent: (fact) => fact.type,
    });

  async function streamOf(...types: string[]): Promise<string> {
    const stream = `reads${randomBytes(6).toString('hex')}-1`;
    await suite.store.appendToStream(
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
    suite.watch.clear();

    const folded = await Promise.all(streams.map(fold));

    expect(suite.watch.statements).toEqual(['es_read_streams', 'es_read_streams']);
    expect(folded).toEqual([
      { state: ['A'], currentRevision: 0n },
      { state: ['B1', 'B2'], currentRevision: 1n },
      { state: ['C1', 'C2', 'C3'], currentRevision: 2n },
      { state: ['D'], currentRevision: 0n },
    ]);
  });

  it('answers a stream that does not exist with no events, in a batch too', async () => {
    const existing = await streamOf('A');
    suite.watch.clear();

    const folded = await Promise.all([fold(existing), fold('reads-none-1'), fold(existing)]);

    expect(suite.watch.statements).toEqual(['es_read_streams', 'es_read_streams']);
    expect(folded).toEqual([
      { state: ['A'], currentRevision: 0n },
      { state: [], currentRevision: undefined },
      { state: ['A'], currentRevision: 0n },
    ]);
  });

  it('gives each caller of a stream asked for twice in one batch its own events', async () => {
    const first = await streamOf('Opened');
    const twice = `reads${randomBytes(6).toString('hex')}-1`;
    await suite.store.appendToStream(twice, [event('Named', { customer: { name: 'Awa' } })], {
      expectedRevision: 'no_stream',
    });
    const dataOf = (stream: string) =>
      suite.store.aggregateStream(stream, {
        initialState: (): unknown => undefined,
        evolve: (_state: unknown, data: unknown) => data,
        asEvent: (fact) => fact.data,
      });

    const [, a, b] = await Promise.all([dataOf(first), dataOf(twice), dataOf(twice)]);

    expect(suite.watch.statements).toEqual(['es_read_streams', 'es_read_streams']);
    expect(a.state).toEqual({ customer: { name: 'Awa' } });
    expect(b.state).toEqual(a.state);
    expect(b.state).not.toBe(a.state);
    expect((b.state as { customer: object }).customer).not.toBe(
      (a.state as { customer: object }).customer,
    );
  });

  it('sees an event appended before the read was asked for, even with a read on its way', async () => {
    const stream = await streamOf('Created');
    suite.watch.clear();

    const before = fold(stream); // on its way
    await suite.store.appendToStream(stream, [event('Paid')], { expectedRevision: 0n });
    const after = await fold(stream); // asked for once the append committed

    expect(after).toEqual({ state: ['Created', 'Paid'], currentRevision: 1n });
    expect((await before).state[0]).toBe('Created');
  });

  it('reads each stream alone when the batch fails before reaching the server', async () => {
    const streams = [await streamOf('A'), await streamOf('B'), await streamOf('C')];
    suite.watch.clear();
    const first = fold(streams[0]!); // sent at once
    // The batch after it fails before it reaches the server.
    suite.watch.failNext('es_read_streams', new Error('Connection terminated unexpectedly'));

    const folded = await Promise.all([first, ...streams.slice(1).map(fold)]);

    // Alone, the other two together (failed), then each of them alone.
    expect(suite.watch.statements).toEqual(Array(4).fill('es_read_streams'));
    expect(folded.map((result) => result.state)).toEqual([['A'], ['B'], ['C']]);
  });
});

const event = (type: string, data: Record<string, unknown> = {}): NewEvent => ({ type, data });
