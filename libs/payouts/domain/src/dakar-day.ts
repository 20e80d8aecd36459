/**
 * The Dakar calendar day of an instant, `YYYY-MM-DD` (CONTRACT 1). Africa/Dakar is UTC+0 with no
 * daylight saving, so the day is the UTC date: no time-zone database is consulted, and the days
 * sort as strings.
 */
export const dakarDay = (now: Date): string => now.toISOString().slice(0, 10);
