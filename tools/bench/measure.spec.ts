import { Worker } from 'node:worker_threads';
import { measure, measureInterleaved, percentile, untilIdle, type Subject } from './measure';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

function counting(
  name: string,
  trace: string[],
  options: Partial<Subject['options']> = {},
): Subject {
  return {
    name,
    op: async () => {
      trace.push(name);
      await tick();
    },
    options: { durationMs: 20, warmupMs: 0, ...options },
  };
}

describe('percentile', () => {
  it('takes the nearest rank', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).toBe(50);
    expect(percentile(sorted, 99)).toBe(99);
    expect(percentile(sorted, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBe(0);
  });
});

describe('measureInterleaved', () => {
  it('alternates the subjects round by round', async () => {
    const trace: string[] = [];
    await measureInterleaved([counting('a', trace), counting('b', trace)], 3);
    const runs = trace.filter((name, i) => i === 0 || trace[i - 1] !== name);
    expect(runs).toEqual(['a', 'b', 'a', 'b', 'a', 'b']);
  });

  it('keeps the rate of every round, the overall rate lying between them', async () => {
    const [a] = await measureInterleaved([counting('a', [])], 3);
    const rates = a.roundRates ?? [];

    expect(rates).toHaveLength(3);
    expect(Math.min(...rates)).toBeGreaterThan(0);
    expect(a.rate).toBeGreaterThanOrEqual(Math.min(...rates) * 0.999);
    expect(a.rate).toBeLessThanOrEqual(Math.max(...rates) * 1.001);
  });

  it('counts units per operation in the rate', async () => {
    const [batch] = await measureInterleaved([counting('batch', [], { unitsPerOp: 100 })], 1);
    expect(batch.operations).toBeGreaterThan(0);
    expect(batch.rate).toBeCloseTo((100 * batch.operations) / batch.seconds, 6);
  });
});

describe('measure', () => {
  it('stops every loop at the first failure and rethrows it', async () => {
    let calls = 0;
    const failing: Subject = {
      name: 'failing',
      op: async () => {
        calls += 1;
        await tick();
        if (calls === 5) throw new Error('wrong answer');
      },
      options: { durationMs: 1_000, warmupMs: 0, concurrency: 4 },
    };
    await expect(measure(failing)).rejects.toThrow('wrong answer');
    const atFailure = calls;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toBe(atFailure);
  });
});

describe('untilIdle', () => {
  it('waits while another thread of the process still works', async () => {
    // Busy for 400 ms once running, then says so: like a subscriber finishing a round's work.
    const worker = new Worker(
      `const end = Date.now() + 400; while (Date.now() < end) {}
       require('node:worker_threads').parentPort.postMessage('done');`,
      { eval: true },
    );
    let done = false;
    worker.on('message', () => (done = true));
    await new Promise((resolve) => worker.once('online', resolve));

    await untilIdle();

    expect(done).toBe(true);
    await worker.terminate();
  });
});
