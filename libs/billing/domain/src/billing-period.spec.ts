import { periodEnd, periodStart } from './billing-period';
import type { BillingInterval } from '@xaalis/kernel';

const at = (text: string) => new Date(text);
const start = (anchor: string, interval: BillingInterval, count: number, index: number) =>
  periodStart(at(anchor), interval, count, index).toISOString();

describe('billing periods (CONTRACT 7: Dakar time, from the anchor)', () => {
  it('period 0 starts at the anchor itself', () => {
    for (const interval of ['day', 'week', 'month', 'year'] as const) {
      expect(start('2026-11-22T10:00:00.000Z', interval, 3, 0)).toBe('2026-11-22T10:00:00.000Z');
    }
  });

  it('day and week: whole days, the time of day kept', () => {
    expect(start('2026-11-22T10:00:00.000Z', 'day', 1, 1)).toBe('2026-11-23T10:00:00.000Z');
    expect(start('2026-11-22T10:00:00.000Z', 'day', 3, 2)).toBe('2026-11-28T10:00:00.000Z');
    expect(start('2026-12-30T23:59:59.999Z', 'day', 1, 2)).toBe('2027-01-01T23:59:59.999Z');
    expect(start('2026-11-22T10:00:00.000Z', 'week', 1, 1)).toBe('2026-11-29T10:00:00.000Z');
    expect(start('2026-11-22T10:00:00.000Z', 'week', 2, 3)).toBe('2027-01-03T10:00:00.000Z');
  });

  it.each([
    [1, '2026-02-28T08:30:00.000Z'],
    [2, '2026-03-31T08:30:00.000Z'],
    [3, '2026-04-30T08:30:00.000Z'],
    [4, '2026-05-31T08:30:00.000Z'],
    [11, '2026-12-31T08:30:00.000Z'],
    [12, '2027-01-31T08:30:00.000Z'],
    [13, '2027-02-28T08:30:00.000Z'],
    [25, '2028-02-29T08:30:00.000Z'],
  ])(
    '31 January monthly, period %i starts %s: a short month ends on its last day',
    (index, expected) => {
      expect(start('2026-01-31T08:30:00.000Z', 'month', 1, index)).toBe(expected);
    },
  );

  it('31 January in a leap year: 29 February, then 31 March again', () => {
    expect(start('2028-01-31T00:00:00.000Z', 'month', 1, 1)).toBe('2028-02-29T00:00:00.000Z');
    expect(start('2028-01-31T00:00:00.000Z', 'month', 1, 2)).toBe('2028-03-31T00:00:00.000Z');
  });

  it.each([
    [1, '2026-02-28T12:00:00.000Z'],
    [2, '2026-03-31T12:00:00.000Z'],
    [3, '2026-04-30T12:00:00.000Z'],
    [6, '2026-07-31T12:00:00.000Z'],
    [11, '2026-12-31T12:00:00.000Z'],
    [12, '2027-01-31T12:00:00.000Z'],
  ])('interval_count %i: period 1 of a 31 January anchor starts %s', (count, expected) => {
    expect(start('2026-01-31T12:00:00.000Z', 'month', count, 1)).toBe(expected);
  });

  it('interval_count 12 months, period 2: two years on', () => {
    expect(start('2026-01-31T12:00:00.000Z', 'month', 12, 2)).toBe('2028-01-31T12:00:00.000Z');
  });

  it('year from 29 February: 28 February in common years, back to 29 in leap years', () => {
    const anchor = '2028-02-29T09:00:00.000Z';
    expect(start(anchor, 'year', 1, 1)).toBe('2029-02-28T09:00:00.000Z');
    expect(start(anchor, 'year', 1, 3)).toBe('2031-02-28T09:00:00.000Z');
    expect(start(anchor, 'year', 1, 4)).toBe('2032-02-29T09:00:00.000Z');
    expect(start(anchor, 'year', 2, 2)).toBe('2032-02-29T09:00:00.000Z');
    expect(start(anchor, 'year', 12, 1)).toBe('2040-02-29T09:00:00.000Z');
  });

  it('a period ends where the next begins', () => {
    const anchor = at('2026-01-31T08:30:00.000Z');
    expect(periodEnd(anchor, 'month', 1, 0)).toEqual(periodStart(anchor, 'month', 1, 1));
    expect(periodEnd(anchor, 'month', 1, 1).toISOString()).toBe('2026-03-31T08:30:00.000Z');
  });
});
