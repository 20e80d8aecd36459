import { WorkLoop, type PassResult } from './work-loop';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A loop whose passes answer `results` in turn (idle once they run out), counting passes. */
function loopOf(results: PassResult[], pollMs = 10_000) {
  const errors: string[] = [];
  let passes = 0;
  const loop = new WorkLoop({
    pass: async () => {
      passes += 1;
      const next = results.shift() ?? { idle: true };
      if (next === FAIL) throw new Error('lease failed');
      return next;
    },
    pollMs,
    onError: (error) => errors.push(error.message),
  });
  return { loop, errors, passes: () => passes };
}

/**
 * Timers on jest's clock, for the tests that count passes against time: on a loaded machine real
 * timers fire late and the counts would measure the machine. `performance.now()` stays real: the
 * loop only subtracts it over a pass, which takes no time here.
 */
async function onJestClock(test: () => Promise<void>): Promise<void> {
  jest.useFakeTimers({ doNotFake: ['performance'] });
  try {
    await test();
  } finally {
    jest.useRealTimers();
  }
}

/** A pass that throws. */
const FAIL: PassResult = { idle: true };

describe('WorkLoop', () => {
  it('runs passes back to back while there is work, then sleeps until woken', async () => {
    const { loop, passes } = loopOf([{ idle: false }, { idle: false }]);
    loop.start();
    await wait(20);
    expect(passes()).toBe(3);

    loop.wake();
    await wait(20);
    expect(passes()).toBe(4);
    await loop.stop();
  });

  it('sleeps no longer than pollMs when nobody wakes it', async () => {
    await onJestClock(async () => {
      const { loop, passes } = loopOf([], 15);
      loop.start();
      await jest.advanceTimersByTimeAsync(1);
      expect(passes()).toBe(1);
      await jest.advanceTimersByTimeAsync(15);
      expect(passes()).toBe(2);
      await jest.advanceTimersByTimeAsync(15);
      expect(passes()).toBe(3);
      const stopped = loop.stop();
      await jest.advanceTimersByTimeAsync(15);
      await stopped;
    });
  });

  it('spaces busy passes by minIntervalMs, which a wake-up does not shorten', async () => {
    await onJestClock(async () => {
      const { loop, passes } = loopOf([
        { idle: false, minIntervalMs: 50 },
        { idle: false, minIntervalMs: 50 },
      ]);
      loop.start();
      await jest.advanceTimersByTimeAsync(10);
      loop.wake();
      await jest.advanceTimersByTimeAsync(10);
      expect(passes()).toBe(1);
      await jest.advanceTimersByTimeAsync(40);
      expect(passes()).toBe(2);
      const stopped = loop.stop();
      await jest.advanceTimersByTimeAsync(50);
      await stopped;
    });
  });

  it('reports a failed pass and carries on as if idle', async () => {
    const { loop, errors, passes } = loopOf([FAIL], 10);
    loop.start();
    await wait(30);
    expect(errors).toEqual(['lease failed']);
    expect(passes()).toBeGreaterThan(1);
    await loop.stop();
  });

  it('stop ends a sleep at once, waits for the pass under way, and starts no other', async () => {
    let finish: () => void = () => undefined;
    let passes = 0;
    const loop = new WorkLoop({
      pass: async () => {
        passes += 1;
        if (passes === 2) await new Promise<void>((resolve) => (finish = resolve));
        return { idle: false, minIntervalMs: 60_000 };
      },
      pollMs: 60_000,
      onError: () => undefined,
    });
    loop.start();
    // The first pass's interval is being slept out; stop ends it.
    const started = Date.now();
    await loop.stop();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(loop.isRunning).toBe(false);

    passes = 1;
    loop.start();
    await wait(5);
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await wait(5);
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(passes).toBe(2);
  });
});
