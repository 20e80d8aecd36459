const MONTHS = [
  'janvier',
  'février',
  'mars',
  'avril',
  'mai',
  'juin',
  'juillet',
  'août',
  'septembre',
  'octobre',
  'novembre',
  'décembre',
] as const;

/**
 * `1er novembre 2026`, `15 décembre 2026`: the calendar day in Dakar, written as in French. Dakar
 * is UTC all year (no daylight saving), so the UTC fields are the Dakar ones. Done by hand, like
 * `formatXof`, rather than with Intl, whose output depends on the ICU shipped with Node.
 */
export function formatFrenchDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) throw new RangeError(`not a date: ${iso}`);
  const day = date.getUTCDate();
  return `${day === 1 ? '1er' : day} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}
