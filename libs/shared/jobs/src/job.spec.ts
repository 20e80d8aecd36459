import { FixedClock } from '@xaalis/kernel';
import { backoffMs, jobDone, nextDueAt, retryLater, runAgainAt, type Job } from './job';

const T0 = new Date('2026-11-28T10:00:00.000Z');
const job = (attempts: number): Job => ({ kind: 'test.x', reference: 'r', attempts, dueAt: T0 });

describe('a run’s next due time', () => {
  const clock = new FixedClock(T0);

  it('done: none, the row goes', () => {
    expect(nextDueAt(jobDone, job(1), clock)).toBeNull();
  });

  it('again at a time: that time', () => {
    const at = new Date(T0.getTime() + 42_000);
    expect(nextDueAt(runAgainAt(at), job(7), clock)).toEqual(at);
  });

  it('retry: after a backoff that doubles with the attempts, from 2 s up to 5 minutes', () => {
    expect([1, 2, 3, 4].map(backoffMs)).toEqual([2_000, 4_000, 8_000, 16_000]);
    expect(backoffMs(9)).toBe(300_000);
    expect(backoffMs(1_000)).toBe(300_000);
    expect(nextDueAt(retryLater('down'), job(2), clock)).toEqual(new Date(T0.getTime() + 4_000));
  });
});
