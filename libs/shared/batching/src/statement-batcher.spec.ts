import { StatementBatcher } from './statement-batcher';

/**
 * The lane's schedule, with statements that answer when the test says: what went alone, what went
 * together, and what each caller was answered. (Its use against Postgres is tested where it is
 * used: first appends, stream reads, idempotency keys.)
 */
describe('StatementBatcher', () => {
  interface Sent {
    items: string[];
    answer: (results?: string[]) => void;
    fail: (error: Error) => void;
  }

  function lane(maxBatch = 3) {
    const sent: Sent[] = [];
    const send = (items: string[]) =>
      new Promise<string[]>((resolve, reject) =>
        sent.push({
          items,
          answer: (results = items.map((item) => `${item}!`)) => resolve(results),
          fail: reject,
        }),
      );
    const group = new StatementBatcher<string, string>({
      alone: async (item) => {
        if (item.startsWith('bad')) throw new Error(`${item} refused`);
        return (await send([item]))[0]!;
      },
      together: send,
      maxBatch,
    });
    return { group, sent };
  }

  const flush = () => new Promise((resolve) => setImmediate(resolve));

  it('sends an item at once when nothing is on its way', async () => {
    const { group, sent } = lane();
    const answer = group.submit('a');
    await flush();
    expect(sent.map((s) => s.items)).toEqual([['a']]);
    sent[0]!.answer();
    await expect(answer).resolves.toBe('a!');
  });

  it('sends what gathered meanwhile together once the statement on its way is answered', async () => {
    const { group, sent } = lane();
    const answers = ['a', 'b', 'c'].map((item) => group.submit(item));
    await flush();
    expect(sent.map((s) => s.items)).toEqual([['a']]);

    sent[0]!.answer();
    await flush();
    expect(sent.map((s) => s.items)).toEqual([['a'], ['b', 'c']]);
    sent[1]!.answer(['B', 'C']);
    await expect(Promise.all(answers)).resolves.toEqual(['a!', 'B', 'C']);
  });

  it('sends one waiting item alone, and at most maxBatch together', async () => {
    const { group, sent } = lane(3);
    const answers = ['a', 'b', 'c', 'd', 'e'].map((item) => group.submit(item));
    await flush();
    sent[0]!.answer();
    await flush();
    sent[1]!.answer();
    await flush();
    sent[2]!.answer();
    await Promise.all(answers);
    expect(sent.map((s) => s.items)).toEqual([['a'], ['b', 'c', 'd'], ['e']]);
  });

  it('sends the next batch even when the statement on its way failed', async () => {
    const { group, sent } = lane();
    const first = group.submit('a');
    const waiting = ['b', 'c'].map((item) => group.submit(item));
    await flush();
    sent[0]!.fail(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await flush();
    expect(sent.map((s) => s.items)).toEqual([['a'], ['b', 'c']]);
    sent[1]!.answer();
    await expect(Promise.all(waiting)).resolves.toEqual(['b!', 'c!']);
  });

  it('sends each item of a failed batch alone, and each gets its own answer', async () => {
    const { group, sent } = lane();
    const first = group.submit('a');
    const waiting = ['b', 'bad', 'c'].map((item) =>
      group.submit(item).catch((e: Error) => e.message),
    );
    await flush();
    sent[0]!.answer();
    await flush();
    sent[1]!.fail(new Error('value refused'));
    await flush();
    expect(sent.map((s) => s.items)).toEqual([['a'], ['b', 'bad', 'c'], ['b'], ['c']]);
    sent[2]!.answer();
    sent[3]!.answer();
    await expect(first).resolves.toBe('a!');
    await expect(Promise.all(waiting)).resolves.toEqual(['b!', 'bad refused', 'c!']);
  });

  it('sends each item alone when a batch answers a result short', async () => {
    const { group, sent } = lane();
    void group.submit('a');
    const waiting = ['b', 'c'].map((item) => group.submit(item));
    await flush();
    sent[0]!.answer();
    await flush();
    sent[1]!.answer(['b!']);
    await flush();
    expect(sent.slice(2).map((s) => s.items)).toEqual([['b'], ['c']]);
    sent[2]!.answer();
    sent[3]!.answer();
    await expect(Promise.all(waiting)).resolves.toEqual(['b!', 'c!']);
  });

  it('answers an item the batch left out with its own promise, which fails alone, and moves on', async () => {
    const sent: string[][] = [];
    const alone = async (item: string) => {
      sent.push([item]);
      if (item.startsWith('bad')) throw new Error(`${item} refused`);
      return `${item} alone`;
    };
    const group = new StatementBatcher<string, string>({
      alone,
      // The statement takes the items not marked `again`; those go alone afterwards.
      together: async (items) => {
        sent.push(items);
        return items.map((item) => (item.endsWith('again') ? alone(item) : `${item} together`));
      },
      maxBatch: 4,
    });
    const first = group.submit('a');
    const waiting = ['b', 'bad again', 'c again'].map((item) =>
      group.submit(item).catch((e: Error) => e.message),
    );
    await expect(first).resolves.toBe('a alone');
    await expect(Promise.all(waiting)).resolves.toEqual([
      'b together',
      'bad again refused',
      'c again alone',
    ]);
    expect(sent).toEqual([['a'], ['b', 'bad again', 'c again'], ['bad again'], ['c again']]);
  });

  it('refuses a maxBatch under 2', () => {
    expect(
      () => new StatementBatcher({ alone: async () => 1, together: async () => [], maxBatch: 1 }),
    ).toThrow('maxBatch must be an integer of at least 2, got 1');
  });
});
