import { ReadPacer, sleep } from './read-pacer';

describe('ReadPacer', () => {
  let clock = 0;
  const now = () => clock;

  beforeEach(() => {
    clock = 1_000;
    jest.useFakeTimers();
  });
  afterEach(() => jest.useRealTimers());

  /** Whether `promise` has settled once the fake timers advanced by `ms`. */
  async function settledAfter(promise: Promise<void>, ms: number): Promise<boolean> {
    let settled = false;
    void promise.then(() => (settled = true));
    await jest.advanceTimersByTimeAsync(ms);
    return settled;
  }

  it('lets the first read through at once', async () => {
    const pacer = new ReadPacer(20, now);

    expect(await settledAfter(pacer.spaced(), 0)).toBe(true);
  });

  it('holds the next read until the spacing has passed since the last one', async () => {
    const pacer = new ReadPacer(20, now);
    pacer.reading();
    clock += 5;

    const spaced = pacer.spaced();

    expect(await settledAfter(spaced, 14)).toBe(false);
    expect(await settledAfter(spaced, 1)).toBe(true);
  });

  it('does not hold a read when the spacing has already passed', async () => {
    const pacer = new ReadPacer(20, now);
    pacer.reading();
    clock += 25;

    expect(await settledAfter(pacer.spaced(), 0)).toBe(true);
  });

  it('gives way at once when its signal aborts', async () => {
    const pacer = new ReadPacer(1_000, now);
    pacer.reading();
    const stopping = new AbortController();
    const spaced = pacer.spaced(stopping.signal);

    stopping.abort();

    expect(await settledAfter(spaced, 0)).toBe(true);
  });

  it('refuses a spacing that is not a number of ms ≥ 0', () => {
    expect(() => new ReadPacer(-1)).toThrow(TypeError);
    expect(() => new ReadPacer(Number.NaN)).toThrow(TypeError);
    expect(new ReadPacer(0)).toBeInstanceOf(ReadPacer);
  });
});

describe('sleep', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('resolves after the time, or at once on an aborted signal', async () => {
    let slept = false;
    void sleep(50).then(() => (slept = true));
    await jest.advanceTimersByTimeAsync(49);
    expect(slept).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(slept).toBe(true);

    const aborted = AbortSignal.abort();
    let woke = false;
    void sleep(60_000, aborted).then(() => (woke = true));
    await jest.advanceTimersByTimeAsync(0);
    expect(woke).toBe(true);
  });
});
