import { formatXof } from './format-xof';

const NNBSP = '\u202f';
const NBSP = '\u00a0';

describe('formatXof', () => {
  it.each([
    [0, `0${NBSP}FCFA`],
    [1, `1${NBSP}FCFA`],
    [999, `999${NBSP}FCFA`],
    [1000, `1${NNBSP}000${NBSP}FCFA`],
    [10_000, `10${NNBSP}000${NBSP}FCFA`],
    [12_500, `12${NNBSP}500${NBSP}FCFA`],
    [100_000_000, `100${NNBSP}000${NNBSP}000${NBSP}FCFA`],
  ])('%d → %s', (amount, expected) => {
    expect(formatXof(amount)).toBe(expected);
  });

  it('keeps the sign of a negative amount', () => {
    expect(formatXof(-2500)).toBe(`-2${NNBSP}500${NBSP}FCFA`);
  });

  it.each([1.5, Number.NaN, Number.POSITIVE_INFINITY])(
    'refuses %p: XOF has no fractions',
    (amount) => {
      expect(() => formatXof(amount)).toThrow(RangeError);
    },
  );
});
