import { memoryRateLimiter, take } from './rate-limiter';

describe('memoryRateLimiter', () => {
  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2026-11-22T10:00:00.000Z') });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('allows a burst, then refuses with the seconds until the window ends', async () => {
    // A burst of 3 at 2 per second is a window of 3 requests per 1.5 s.
    const limiter = memoryRateLimiter({ perSecond: 2, burst: 3 }, 'test');
    expect(await take(limiter, 'a')).toEqual({ allowed: true, remaining: 2 });
    expect(await take(limiter, 'a')).toEqual({ allowed: true, remaining: 1 });
    expect(await take(limiter, 'a')).toEqual({ allowed: true, remaining: 0 });
    // 1.5 s left; Retry-After is whole seconds, rounded up.
    expect(await take(limiter, 'a')).toEqual({ allowed: false, retryAfterSeconds: 2 });
  });

  it('gives the whole burst back when the window ends, not a token at a time', async () => {
    const limiter = memoryRateLimiter({ perSecond: 2, burst: 3 }, 'test');
    for (let i = 0; i < 3; i += 1) await take(limiter, 'a');
    jest.advanceTimersByTime(500);
    expect((await take(limiter, 'a')).allowed).toBe(false);
    jest.advanceTimersByTime(1_000);
    expect(await take(limiter, 'a')).toEqual({ allowed: true, remaining: 2 });
  });

  it('waits several seconds at a slow rate', async () => {
    const limiter = memoryRateLimiter({ perSecond: 0.25, burst: 1 }, 'test');
    expect((await take(limiter, 'a')).allowed).toBe(true);
    expect(await take(limiter, 'a')).toEqual({ allowed: false, retryAfterSeconds: 4 });
    jest.advanceTimersByTime(3_000);
    expect(await take(limiter, 'a')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    jest.advanceTimersByTime(1_000);
    expect((await take(limiter, 'a')).allowed).toBe(true);
  });

  it('keeps one window per key', async () => {
    const limiter = memoryRateLimiter({ perSecond: 1, burst: 1 }, 'test');
    expect((await take(limiter, 'a')).allowed).toBe(true);
    expect((await take(limiter, 'a')).allowed).toBe(false);
    expect((await take(limiter, 'b')).allowed).toBe(true);
  });

  it('charges a cost above one', async () => {
    const limiter = memoryRateLimiter({ perSecond: 1, burst: 5 }, 'test');
    expect(await take(limiter, 'a', 4)).toEqual({ allowed: true, remaining: 1 });
    expect(await take(limiter, 'a', 3)).toEqual({ allowed: false, retryAfterSeconds: 5 });
  });

  it('refuses limits that would never allow a request', () => {
    expect(() => memoryRateLimiter({ perSecond: 0, burst: 1 }, 'test')).toThrow('perSecond > 0');
    expect(() => memoryRateLimiter({ perSecond: 1, burst: 0 }, 'test')).toThrow('burst >= 1');
  });
});
