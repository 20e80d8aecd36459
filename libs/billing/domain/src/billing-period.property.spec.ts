import { BILLING_INTERVALS, type BillingInterval } from '@xaalis/kernel';
import fc from 'fast-check';
import { DAY_MS, periodEnd, periodStart } from './billing-period';

/**
 * Property tests for CONTRACT 7: periods are computed in Dakar time (UTC+0, no DST) from the
 * subscription's anchor; a month with no anchor day ends on its last day and the next period
 * returns to the anchor day. Each case is a random anchor (2000–2100, biased to days 28–31 and
 * 29 February, any time of day) given as a local wall-clock time in a random UTC offset
 * (−12:00..+14:00), a random interval and an interval_count of 1..12; the first PERIODS periods
 * are checked against an independent reference written with plain Date.UTC arithmetic.
 */

const PERIODS = 60;
const RUNS = 300;

// ---------------------------------------------------------------------------------------------
// Independent reference (no code shared with billing-period.ts).

const isLeap = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const daysIn = (year: number, month: number): number =>
  month === 1 && isLeap(year) ? 29 : MONTH_DAYS[month];

/** The anchor's Dakar (= UTC) calendar fields. */
interface Fields {
  year: number;
  month: number; // 0..11
  day: number;
  hours: number;
  minutes: number;
  seconds: number;
  ms: number;
}
const fieldsOf = (d: Date): Fields => ({
  year: d.getUTCFullYear(),
  month: d.getUTCMonth(),
  day: d.getUTCDate(),
  hours: d.getUTCHours(),
  minutes: d.getUTCMinutes(),
  seconds: d.getUTCSeconds(),
  ms: d.getUTCMilliseconds(),
});

const MONTHS_PER: Record<'month' | 'year', number> = { month: 1, year: 12 };
const DAYS_PER: Record<'day' | 'week', number> = { day: 1, week: 7 };

/** Calendar month index (year * 12 + month) of the reference start of period `index`. */
const refMonthIndex = (a: Fields, interval: 'month' | 'year', count: number, index: number) =>
  a.year * 12 + a.month + index * count * MONTHS_PER[interval];

function referenceStart(
  anchor: Date,
  interval: BillingInterval,
  count: number,
  index: number,
): number {
  const a = fieldsOf(anchor);
  if (interval === 'day' || interval === 'week') {
    // Calendar-day arithmetic (Date.UTC normalises day overflow), not millisecond arithmetic.
    const day = a.day + index * count * DAYS_PER[interval];
    return Date.UTC(a.year, a.month, day, a.hours, a.minutes, a.seconds, a.ms);
  }
  const total = refMonthIndex(a, interval, count, index);
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  const day = Math.min(a.day, daysIn(year, month));
  return Date.UTC(year, month, day, a.hours, a.minutes, a.seconds, a.ms);
}

// ---------------------------------------------------------------------------------------------
// Generators.

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

interface Case {
  /** The wall-clock time the anchor was given in, and its UTC offset in minutes. */
  local: Fields;
  offsetMinutes: number;
  anchor: Date;
  interval: BillingInterval;
  count: number;
}

const describeCase = (c: Case): string => {
  const l = c.local;
  const sign = c.offsetMinutes < 0 ? '-' : '+';
  const off = `${sign}${pad(Math.trunc(Math.abs(c.offsetMinutes) / 60))}:${pad(Math.abs(c.offsetMinutes) % 60)}`;
  const local =
    `${pad(l.year, 4)}-${pad(l.month + 1)}-${pad(l.day)}T` +
    `${pad(l.hours)}:${pad(l.minutes)}:${pad(l.seconds)}.${pad(l.ms, 3)}${off}`;
  return `anchor ${local} (= ${c.anchor.toISOString()} Dakar), every ${c.count} ${c.interval}(s)`;
};

/** Days weighted to the end of the month; invalid days (30 Feb…) clamp to the month's last. */
const dayArb = fc.oneof(
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 31 }) },
  { weight: 3, arbitrary: fc.integer({ min: 28, max: 31 }) },
);

/** A local date: random, or a leap day, or a last-of-month, in years 2000–2100. */
const localDateArb = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record({
        year: fc.integer({ min: 2000, max: 2100 }),
        month: fc.integer({ min: 0, max: 11 }),
        day: dayArb,
      })
      .map(({ year, month, day }) => ({ year, month, day: Math.min(day, daysIn(year, month)) })),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 500, max: 525 }) // leap years 2000..2100 (2100 itself is not leap)
      .map((q) => ({ year: q * 4, month: 1, day: isLeap(q * 4) ? 29 : 28 })),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({
        year: fc.integer({ min: 2000, max: 2100 }),
        month: fc.integer({ min: 0, max: 11 }),
      })
      .map(({ year, month }) => ({ year, month, day: daysIn(year, month) })),
  },
);

const timeArb = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      hours: fc.integer({ min: 0, max: 23 }),
      minutes: fc.integer({ min: 0, max: 59 }),
      seconds: fc.integer({ min: 0, max: 59 }),
      ms: fc.integer({ min: 0, max: 999 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      { hours: 0, minutes: 0, seconds: 0, ms: 0 },
      { hours: 23, minutes: 59, seconds: 59, ms: 999 },
      { hours: 12, minutes: 0, seconds: 0, ms: 0 },
    ),
  },
);

/** UTC offsets −12:00..+14:00: quarter hours mostly, any minute sometimes, and 0 (Dakar). */
const offsetArb = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: -48, max: 56 }).map((q) => q * 15) },
  { weight: 1, arbitrary: fc.integer({ min: -720, max: 840 }) },
  { weight: 1, arbitrary: fc.constant(0) },
);

const caseArb: fc.Arbitrary<Case> = fc
  .record({
    date: localDateArb,
    time: timeArb,
    offsetMinutes: offsetArb,
    interval: fc.constantFrom(...BILLING_INTERVALS),
    count: fc.integer({ min: 1, max: 12 }),
  })
  .map(({ date, time, offsetMinutes, interval, count }) => {
    const local = { ...date, ...time };
    // Local wall clock at UTC+offset → the instant: subtract the offset.
    const instant =
      Date.UTC(
        local.year,
        local.month,
        local.day,
        local.hours,
        local.minutes,
        local.seconds,
        local.ms,
      ) -
      offsetMinutes * 60_000;
    const c: Case = { local, offsetMinutes, anchor: new Date(instant), interval, count };
    return Object.assign(c, { [fc.toStringMethod]: () => describeCase(c) });
  });

// ---------------------------------------------------------------------------------------------
// Checks with readable failures.

const iso = (t: number | Date) => new Date(t).toISOString();

function check(ok: boolean, c: Case, index: number, what: () => string): void {
  if (!ok) throw new Error(`${describeCase(c)}, period ${index}: ${what()}`);
}

const starts = (c: Case): Date[] =>
  Array.from({ length: PERIODS + 1 }, (_, i) => periodStart(c.anchor, c.interval, c.count, i));

const run = (property: (c: Case) => void) =>
  fc.assert(fc.property(caseArb, property), { numRuns: RUNS });

describe(`billing periods, properties (CONTRACT 7), first ${PERIODS} periods × ${RUNS} runs`, () => {
  it('period 0 starts at the anchor instant', () => {
    run((c) => {
      const s0 = periodStart(c.anchor, c.interval, c.count, 0);
      check(s0.getTime() === c.anchor.getTime(), c, 0, () => `starts ${iso(s0)}`);
    });
  });

  it('periods neither overlap nor leave a gap: start(i+1) > start(i) and end(i) = start(i+1)', () => {
    run((c) => {
      const s = starts(c);
      for (let i = 0; i < PERIODS; i++) {
        check(
          s[i + 1].getTime() > s[i].getTime(),
          c,
          i,
          () => `start(${i + 1}) ${iso(s[i + 1])} is not after start(${i}) ${iso(s[i])}`,
        );
        const end = periodEnd(c.anchor, c.interval, c.count, i);
        check(
          end.getTime() === s[i + 1].getTime(),
          c,
          i,
          () => `ends ${iso(end)} but period ${i + 1} starts ${iso(s[i + 1])}`,
        );
      }
    });
  });

  it('every start keeps the anchor’s Dakar (UTC) time of day', () => {
    run((c) => {
      const a = fieldsOf(c.anchor);
      starts(c).forEach((s, i) => {
        const f = fieldsOf(s);
        check(
          f.hours === a.hours &&
            f.minutes === a.minutes &&
            f.seconds === a.seconds &&
            f.ms === a.ms,
          c,
          i,
          () => `starts ${iso(s)}, time of day differs from the anchor's ${iso(c.anchor)}`,
        );
      });
    });
  });

  it('month/year: i×count months on, on min(anchor day, days in month), back to the anchor day', () => {
    fc.assert(
      fc.property(
        caseArb.filter((c) => c.interval === 'month' || c.interval === 'year'),
        (c) => {
          const interval = c.interval as 'month' | 'year';
          const a = fieldsOf(c.anchor);
          starts(c).forEach((s, i) => {
            const f = fieldsOf(s);
            const expectedMonth = refMonthIndex(a, interval, c.count, i);
            check(
              f.year * 12 + f.month === expectedMonth,
              c,
              i,
              () =>
                `starts ${iso(s)}: ${f.year * 12 + f.month - (a.year * 12 + a.month)} months ` +
                `after the anchor's month, expected ${i * c.count * MONTHS_PER[interval]}`,
            );
            const dim = daysIn(f.year, f.month);
            const expectedDay = Math.min(a.day, dim);
            check(
              f.day === expectedDay,
              c,
              i,
              () =>
                `starts ${iso(s)} on day ${f.day}, expected ${expectedDay} ` +
                `(anchor day ${a.day}, month has ${dim} days)`,
            );
            if (dim >= a.day) {
              check(f.day === a.day, c, i, () => `did not return to anchor day ${a.day}`);
            }
          });
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('day/week: start(i) − anchor = i × count × (1 or 7) days exactly', () => {
    fc.assert(
      fc.property(
        caseArb.filter((c) => c.interval === 'day' || c.interval === 'week'),
        (c) => {
          const per = DAYS_PER[c.interval as 'day' | 'week'];
          starts(c).forEach((s, i) => {
            const expected = i * c.count * per * DAY_MS;
            const actual = s.getTime() - c.anchor.getTime();
            check(
              actual === expected,
              c,
              i,
              () =>
                `starts ${iso(s)}: ${actual / DAY_MS} days after the anchor, expected ${expected / DAY_MS}`,
            );
          });
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('computed from the anchor, never drifting: equals the independent Date.UTC reference', () => {
    run((c) => {
      starts(c).forEach((s, i) => {
        const expected = referenceStart(c.anchor, c.interval, c.count, i);
        check(s.getTime() === expected, c, i, () => `starts ${iso(s)}, reference ${iso(expected)}`);
      });
    });
  });
});
