import { InMemoryProcessedMessages } from './idempotent-consumer';

describe('InMemoryProcessedMessages', () => {
  let processed: InMemoryProcessedMessages;
  let runs: string[];
  const work = (label: string) => async () => {
    runs.push(label);
  };

  beforeEach(() => {
    processed = new InMemoryProcessedMessages();
    runs = [];
  });

  it('runs the work once per consumer and message', async () => {
    expect(await processed.processOnce('ledger', 'evt_1', work('first'))).toBe(true);
    expect(await processed.processOnce('ledger', 'evt_1', work('again'))).toBe(false);
    expect(await processed.processOnce('webhooks', 'evt_1', work('other consumer'))).toBe(true);

    expect(runs).toEqual(['first', 'other consumer']);
    expect(processed.has('ledger', 'evt_1')).toBe(true);
  });

  it('does not count failed work, so the redelivery runs it', async () => {
    await expect(
      processed.processOnce('ledger', 'evt_1', async () => {
        throw new Error('database down');
      }),
    ).rejects.toThrow('database down');

    expect(await processed.processOnce('ledger', 'evt_1', work('redelivered'))).toBe(true);
    expect(runs).toEqual(['redelivered']);
  });

  it('runs concurrent duplicates once', async () => {
    let release!: () => void;
    const slow = () =>
      new Promise<void>((resolve) => {
        runs.push('slow');
        release = resolve;
      });

    const first = processed.processOnce('ledger', 'evt_1', slow);
    const duplicates = [1, 2].map(() =>
      processed.processOnce('ledger', 'evt_1', work('duplicate')),
    );
    await new Promise((resolve) => setImmediate(resolve));
    release();

    expect(await Promise.all([first, ...duplicates])).toEqual([true, false, false]);
    expect(runs).toEqual(['slow']);
  });

  it('lets only one waiting duplicate run after the first attempt failed', async () => {
    let fail!: () => void;
    const failing = () =>
      new Promise<void>((_, reject) => {
        fail = () => reject(new Error('crash'));
      });

    const first = processed.processOnce('ledger', 'evt_1', failing);
    const duplicates = [1, 2].map((n) =>
      processed.processOnce('ledger', 'evt_1', work(`duplicate ${n}`)),
    );
    await new Promise((resolve) => setImmediate(resolve));
    fail();

    await expect(first).rejects.toThrow('crash');
    expect((await Promise.all(duplicates)).sort()).toEqual([false, true]);
    expect(runs).toHaveLength(1);
  });
});
