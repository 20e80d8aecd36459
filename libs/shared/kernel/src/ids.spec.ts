import { newId, successorId, ulid } from './ids';

describe('ids', () => {
  it('are 26 Crockford characters after the prefix', () => {
    expect(newId('payment')).toMatch(/^pay_[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it('sort in creation order, even within one millisecond', () => {
    const ids = Array.from({ length: 1000 }, () => ulid(1_700_000_000_000));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(1000);
  });

  it('draw fresh random parts for each millisecond, across refills of the random pool', () => {
    // 1,000 ids of 10 random bytes each: the 4 KB pool is refilled twice on the way.
    const randomParts = Array.from({ length: 1000 }, (_, index) => ulid(1_000 + index).slice(10));
    expect(new Set(randomParts).size).toBe(1000);
  });

  it('sort by time across milliseconds', () => {
    expect(ulid(1_000) < ulid(2_000)).toBe(true);
  });

  describe('successorId', () => {
    const id = 'po_01M8HG6REXK37ZR5NEAA5JNSDM';

    it('keeps the prefix and the time, and is a valid id of the kind', () => {
      const next = successorId(id);
      expect(next).toMatch(/^po_01M8HG6REX[0-9A-HJKMNP-TV-Z]{16}$/);
      expect(next).not.toBe(id);
    });

    it('is the same for the same id, and differs from id to id and along a line', () => {
      expect(successorId(id)).toBe(successorId(id));
      expect(successorId('po_01M8HG6REXK37ZR5NEAA5JNSDN')).not.toBe(successorId(id));
      const line = [id];
      for (let n = 0; n < 50; n++) line.push(successorId(line.at(-1)!));
      expect(new Set(line).size).toBe(51);
    });

    it('refuses what is not a prefixed ULID', () => {
      expect(() => successorId('po_short')).toThrow(TypeError);
      expect(() => successorId('01M8HG6REXK37ZR5NEAA5JNSDM')).toThrow(TypeError);
    });
  });
});
