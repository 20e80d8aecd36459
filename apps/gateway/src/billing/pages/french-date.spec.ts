import { formatFrenchDate } from './french-date';

describe('formatFrenchDate', () => {
  it.each([
    ['2026-11-01T00:00:00.000Z', '1er novembre 2026'],
    ['2026-12-15T10:30:00.000Z', '15 décembre 2026'],
    ['2027-02-28T23:59:59.999Z', '28 février 2027'],
    ['2027-08-09T12:00:00.000Z', '9 août 2027'],
  ])('writes %s as %p, the Dakar (UTC) calendar day', (iso, text) => {
    expect(formatFrenchDate(iso)).toBe(text);
  });

  it('refuses what is not a date', () => {
    expect(() => formatFrenchDate('demain')).toThrow(RangeError);
  });
});
