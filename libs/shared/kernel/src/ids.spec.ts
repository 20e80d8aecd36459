import { newId, ulid } from './ids';

describe('ids', () => {
  it('are 26 Crockford characters after the prefix', () => {
    expect(newId('payment')).toMatch(/^pay_[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it('sort in creation order, even within one millisecond', () => {
    const ids = Array.from({ length: 1000 }, () => ulid(1_700_000_000_000));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(1000);
  });

  it('sort by time across milliseconds', () => {
    expect(ulid(1_000) < ulid(2_000)).toBe(true);
  });
});
