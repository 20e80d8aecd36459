import { FixedClock } from '@xaalis/kernel';
import { RateLimiter } from './rate-limiter';

const start = new Date('2026-11-22T10:00:00.000Z');

describe('RateLimiter', () => {
  it('allows a burst, then refuses with the seconds until the next token', () => {
    const clock = new FixedClock(start);
    const limiter = new RateLimiter({ perSecond: 2, burst: 3 }, clock);
    expect(limiter.take('a')).toEqual({ allowed: true, remaining: 2 });
    expect(limiter.take('a')).toEqual({ allowed: true, remaining: 1 });
    expect(limiter.take('a')).toEqual({ allowed: true, remaining: 0 });
    // One token takes 0.5 s at 2 per second; Retry-After is whole seconds, rounded up.
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('refills at the configured rate, never above the burst', () => {
    const clock = new FixedClock(start);
    const limiter = new RateLimiter({ perSecond: 2, burst: 3 }, clock);
    for (let i = 0; i < 3; i += 1) limiter.take('a');
    clock.advance(500);
    expect(limiter.take('a')).toEqual({ allowed: true, remaining: 0 });
    expect(limiter.take('a').allowed).toBe(false);
    clock.advance(60_000);
    expect(limiter.take('a')).toEqual({ allowed: true, remaining: 2 });
  });

  it('waits several seconds at a slow rate', () => {
    const clock = new FixedClock(start);
    const limiter = new RateLimiter({ perSecond: 0.25, burst: 1 }, clock);
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 4 });
    clock.advance(3_000);
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    clock.advance(1_000);
    expect(limiter.take('a').allowed).toBe(true);
  });

  it('keeps one bucket per key', () => {
    const limiter = new RateLimiter({ perSecond: 1, burst: 1 }, new FixedClock(start));
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(false);
    expect(limiter.take('b').allowed).toBe(true);
  });

  it('charges a cost above one', () => {
    const limiter = new RateLimiter({ perSecond: 1, burst: 5 }, new FixedClock(start));
    expect(limiter.take('a', 4)).toEqual({ allowed: true, remaining: 1 });
    expect(limiter.take('a', 3)).toEqual({ allowed: false, retryAfterSeconds: 2 });
  });

  it('neither refills nor drains when the clock steps back', () => {
    const clock = new FixedClock(start);
    const limiter = new RateLimiter({ perSecond: 1, burst: 2 }, clock);
    limiter.take('a');
    clock.advance(-10_000);
    expect(limiter.take('a')).toEqual({ allowed: true, remaining: 0 });
    expect(limiter.take('a').allowed).toBe(false);
  });

  it('forgets the least recently used bucket beyond its capacity', () => {
    const limiter = new RateLimiter({ perSecond: 1, burst: 1 }, new FixedClock(start), 2);
    limiter.take('a');
    limiter.take('b');
    limiter.take('a');
    limiter.take('c');
    expect(limiter.size).toBe(2);
    // "b" was forgotten, so it has a full bucket again; "a" was kept and is still empty.
    expect(limiter.take('b').allowed).toBe(true);
    expect(limiter.take('c').allowed).toBe(false);
  });

  it('refuses limits that would never allow a request', () => {
    expect(() => new RateLimiter({ perSecond: 0, burst: 1 })).toThrow('perSecond > 0');
    expect(() => new RateLimiter({ perSecond: 1, burst: 0 })).toThrow('burst >= 1');
  });
});
