import { afterAttempt, MAX_ATTEMPTS, retryDelayMs } from './delivery-schedule';

describe('delivery schedule (spec 6)', () => {
  const now = new Date('2026-11-22T10:00:00.000Z');
  const at = (ms: number) => new Date(now.getTime() + ms).toISOString();

  it('waits 10 s, 20 s, 40 s… after each failure with the default base', () => {
    expect([1, 2, 3, 4, 11].map((attempts) => retryDelayMs(10_000, attempts))).toEqual([
      10_000, 20_000, 40_000, 80_000, 10_240_000,
    ]);
  });

  it('spends about 5.7 hours between the first and the twelfth attempt', () => {
    let total = 0;
    for (let attempts = 1; attempts < MAX_ATTEMPTS; attempts += 1)
      total += retryDelayMs(10_000, attempts);
    expect(total).toBe(20_470_000);
    expect(total / 3_600_000).toBeCloseTo(5.69, 2);
  });

  it('schedules the next attempt after a failure, from the base given', () => {
    expect(afterAttempt({ attempts: 1, outcome: 'failed', now, retryBaseMs: 50 })).toEqual({
      status: 'pending',
      nextAttemptAt: new Date(at(50)),
    });
    expect(afterAttempt({ attempts: 3, outcome: 'failed', now, retryBaseMs: 50 })).toEqual({
      status: 'pending',
      nextAttemptAt: new Date(at(200)),
    });
    expect(afterAttempt({ attempts: 11, outcome: 'failed', now, retryBaseMs: 50 })).toEqual({
      status: 'pending',
      nextAttemptAt: new Date(at(51_200)),
    });
  });

  it('fails for good on the twelfth failure, and succeeds on any 2xx attempt', () => {
    expect(afterAttempt({ attempts: 12, outcome: 'failed', now, retryBaseMs: 50 })).toEqual({
      status: 'failed',
      nextAttemptAt: null,
    });
    expect(afterAttempt({ attempts: 13, outcome: 'failed', now, retryBaseMs: 50 }).status).toBe(
      'failed',
    );
    expect(afterAttempt({ attempts: 3, outcome: 'succeeded', now, retryBaseMs: 50 })).toEqual({
      status: 'succeeded',
      nextAttemptAt: null,
    });
  });
});
