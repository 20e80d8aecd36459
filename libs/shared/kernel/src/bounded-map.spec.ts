import { BoundedMap } from './bounded-map';

describe('BoundedMap', () => {
  it('keeps what it is given until it is full', () => {
    const map = new BoundedMap<string, number>(3);
    map.set('a', 1);
    map.set('b', 2);
    map.set('c', 3);
    expect([map.get('a'), map.get('b'), map.get('c'), map.size]).toEqual([1, 2, 3, 3]);
  });

  it('replaces the value of a key it holds without emptying a full map', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    map.set('a', 10);
    expect([map.get('a'), map.get('b'), map.size]).toEqual([10, 2, 2]);
  });

  it('empties a full map before adding a new key, so it never holds more than its bound', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    map.set('c', 3);
    expect([map.get('a'), map.get('b'), map.get('c'), map.size]).toEqual([
      undefined,
      undefined,
      3,
      1,
    ]);
  });

  it('refuses a bound that is not a positive integer', () => {
    expect(() => new BoundedMap(0)).toThrow('maxEntries must be a positive integer, got 0');
    expect(() => new BoundedMap(1.5)).toThrow(RangeError);
  });
});
