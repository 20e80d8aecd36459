const NARROW_NO_BREAK_SPACE = '\u202f';
const NO_BREAK_SPACE = '\u00a0';

/**
 * `10 000 FCFA`: French grouping with a narrow no-break space, as written in Senegal. Done by
 * hand rather than with Intl because the separator Intl picks depends on the ICU version
 * shipped with Node. A no-break space before `FCFA` keeps the unit on the amount's line.
 */
export function formatXof(amount: number): string {
  if (!Number.isSafeInteger(amount))
    throw new RangeError(`XOF amounts are integers, got ${amount}`);
  const digits = String(Math.abs(amount)).replace(/\B(?=(\d{3})+$)/g, NARROW_NO_BREAK_SPACE);
  return `${amount < 0 ? '-' : ''}${digits}${NO_BREAK_SPACE}FCFA`;
}
