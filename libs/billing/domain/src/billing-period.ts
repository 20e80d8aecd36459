import { assertNever, type BillingInterval } from '@xaalis/kernel';

export const DAY_MS = 86_400_000;

const daysInMonth = (year: number, month: number): number =>
  new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

/** `months` calendar months after `anchor`, on the anchor's day or the month's last if shorter. */
function addMonths(anchor: Date, months: number): Date {
  const target = new Date(Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth() + months, 1));
  const year = target.getUTCFullYear();
  const month = target.getUTCMonth();
  const day = Math.min(anchor.getUTCDate(), daysInMonth(year, month));
  return new Date(
    Date.UTC(
      year,
      month,
      day,
      anchor.getUTCHours(),
      anchor.getUTCMinutes(),
      anchor.getUTCSeconds(),
      anchor.getUTCMilliseconds(),
    ),
  );
}

/**
 * The start of period `index` (0 is the anchor itself). Computed in Dakar time (Africa/Dakar is
 * UTC+0 with no daylight saving, so UTC calendar arithmetic is Dakar's) and always from the
 * anchor, never from the previous period: a 31 January anchor bills on 28 (or 29) February, then
 * on 31 March again, where stepping from the clamped date would drift to the 28th for ever
 * (CONTRACT 7).
 */
export function periodStart(
  anchor: Date,
  interval: BillingInterval,
  intervalCount: number,
  index: number,
): Date {
  const steps = intervalCount * index;
  switch (interval) {
    case 'day':
      return new Date(anchor.getTime() + steps * DAY_MS);
    case 'week':
      return new Date(anchor.getTime() + steps * 7 * DAY_MS);
    case 'month':
      return addMonths(anchor, steps);
    case 'year':
      return addMonths(anchor, steps * 12);
    default:
      return assertNever(interval);
  }
}

/** Period `index` spans [start(index), start(index + 1)). */
export const periodEnd = (
  anchor: Date,
  interval: BillingInterval,
  intervalCount: number,
  index: number,
): Date => periodStart(anchor, interval, intervalCount, index + 1);
