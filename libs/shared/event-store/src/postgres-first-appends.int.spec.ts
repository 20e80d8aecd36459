import { randomBytes, randomUUID } from 'node:crypto';
import { ConcurrencyError, DuplicateEventIdError, type NewEvent } from './event-store';
import { MAX_APPENDS_PER_STATEMENT } from './postgres-append';
import { describeWithPostgres, useWatchedStore } from './testing/pg';

/**
 * Group commit of new streams' first events (PostgresEventStore's lane for 'no_stream' appends):
 * an append goes at once when nothing is on its way, the appends made meanwhile share the next
 * statement (the same one with a row per event: `es_append_x<count>`), and each still answers
 * what it would have answered alone.
 */
describeWithPostgres('Postgres group commit of first appends', () => {
  const suite = useWatchedStore((name) => name !== 'es_notify');

  const create = (stream: string, e: NewEvent = event('Created')) =>
    suite.store.appendToStream(stream, [e], { expectedRevision: 'no_stream' });

  it('sends the first append at once and those made meanwhile together, in one statement', async () => {
    const streams = Array.from({ length: 20 }, newStream);

    const results = await Promise.all(streams.map((stream) => create(stream)));

    expect(suite.watch.statements).toEqual(['es_append', 'es_append_x19']);
    expect(results.every((result) => result.nextExpectedRevision === 0n)).toBe(true);
    // One transaction: every position differs, in the order the appends were made.
    const positions = results.map((result) => result.position);
    expect(new Set(positions).size).toBe(20);
    expect([...positions].sort()).toEqual(positions);
    for (const [index, stream] of streams.entries()) {
      const { events, currentRevision } = await suite.store.readStream(stream);
      expect(currentRevision).toBe(0n);
      expect(events.map((e) => [e.type, e.revision, e.position])).toEqual([
        ['Created', 0n, positions[index]],
      ]);
    }
  });

  it('sends appends made one after the other each at once, with the one-row statement', async () => {
    await create(newStream());
    await create(newStream());
    expect(suite.watch.statements).toEqual(['es_append', 'es_append']);
  });

  it(`splits the appends waiting into statements of at most ${MAX_APPENDS_PER_STATEMENT}`, async () => {
    const count = 1 + MAX_APPENDS_PER_STATEMENT * 2 + 3;

    const streams = Array.from({ length: count }, newStream);

    const results = await Promise.all(streams.map((stream) => create(stream)));

    expect(suite.watch.statements).toEqual([
      'es_append',
      `es_append_x${MAX_APPENDS_PER_STATEMENT}`,
      `es_append_x${MAX_APPENDS_PER_STATEMENT}`,
      'es_append_x3',
    ]);
    expect(new Set(results.map((result) => result.position)).size).toBe(count);
    const { rows } = await suite.db.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM es_messages WHERE stream_name = ANY($1::text[])',
      [streams],
    );
    expect(rows[0]!.n).toBe(count);
  });

  it('gives each append its own answer when one of the batch cannot be written', async () => {
    const existing = newStream();
    await create(existing);
    const stored = withId(event('Stored'));
    await create(newStream(), stored);
    const twice = newStream();
    suite.watch.clear();

    const outcomes = await Promise.allSettled([
      create(newStream()), // sent at once; the others wait for it, then go as one statement
      create(newStream()),
      create(existing), // the stream exists
      create(twice),
      create(twice), // opened twice in one turn
      create(newStream(), { ...stored }), // an event id stored in another stream
      create(newStream(), event('Bad', { text: 'nul \u0000 character' })), // jsonb refuses it
      create(newStream()),
    ]);

    expect(suite.watch.statements.slice(0, 2)).toEqual(['es_append', 'es_append_x7']);
    const [, first, exists, opened, openedAgain, duplicate, refused, last] = outcomes;
    expect(first).toMatchObject({ status: 'fulfilled', value: { nextExpectedRevision: 0n } });
    expect(last).toMatchObject({ status: 'fulfilled', value: { nextExpectedRevision: 0n } });
    expect(exists).toMatchObject({ status: 'rejected', reason: expect.any(ConcurrencyError) });
    expect((exists as PromiseRejectedResult).reason).toMatchObject({ actual: 0n });
    expect([opened.status, openedAgain.status].sort()).toEqual(['fulfilled', 'rejected']);
    expect([opened, openedAgain].find((outcome) => outcome.status === 'rejected')).toMatchObject({
      reason: expect.any(ConcurrencyError),
    });
    expect(duplicate).toMatchObject({
      status: 'rejected',
      reason: expect.any(DuplicateEventIdError),
    });
    expect(refused).toMatchObject({ status: 'rejected', reason: { code: '22P05' } });
    expect((await suite.store.readStream(twice)).currentRevision).toBe(0n);
  });

  it('appends each on its own when the batch statement fails before the server answers', async () => {
    const streams = [newStream(), newStream(), newStream(), newStream()];
    // A batch fails before it reaches the server (a connection lost, say).
    suite.watch.failNext('es_append_x', new Error('Connection terminated unexpectedly'));

    const results = await Promise.all(streams.map((stream) => create(stream)));

    expect(suite.watch.statements.slice(0, 2)).toEqual(['es_append', 'es_append_x3']);
    expect(results.map((result) => result.nextExpectedRevision)).toEqual([0n, 0n, 0n, 0n]);
    for (const stream of streams)
      expect((await suite.store.readStream(stream)).currentRevision).toBe(0n);
  });

  it('answers a retry of an event the batch did write as a success, writing nothing twice', async () => {
    const stream = newStream();
    const created = withId(event('Created'));
    const [, original] = await Promise.all([
      create(newStream()),
      create(stream, created),
      create(newStream()),
    ]);
    expect(suite.watch.statements).toEqual(['es_append', 'es_append_x2']);

    const [, retried] = await Promise.all([
      create(newStream()),
      create(stream, { ...created }),
      create(newStream()),
    ]);

    expect(retried).toEqual(original);
    expect((await suite.store.readStream(stream)).events).toHaveLength(1);
  });
});

const newStream = () => `first${randomBytes(6).toString('hex')}-1`;
const event = (type: string, data: Record<string, unknown> = {}): NewEvent => ({ type, data });
const withId = (e: NewEvent): NewEvent => ({ ...e, id: randomUUID() });
