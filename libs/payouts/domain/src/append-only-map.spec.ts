import { AppendOnlyMap } from './append-only-map';

describe('AppendOnlyMap', () => {
  it('each version sees what was set before it, and only that', () => {
    const empty = AppendOnlyMap.empty<number>();
    const one = empty.set('a', 1);
    const two = one.set('b', 2);
    expect([empty.size, one.size, two.size]).toEqual([0, 1, 2]);
    expect(empty.get('a')).toBeUndefined();
    expect(one.get('a')).toBe(1);
    expect(one.has('b')).toBe(false);
    expect(two.get('b')).toBe(2);
    expect([...two.entries()]).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
    expect([...one.entries()]).toEqual([['a', 1]]);
  });

  it('an older version set again branches: neither branch sees the other', () => {
    const base = AppendOnlyMap.empty<string>().set('a', 'base');
    const left = base.set('l', 'left');
    const right = base.set('r', 'right');
    const rightAgain = right.set('same', 'x');
    expect([...left.entries()]).toEqual([
      ['a', 'base'],
      ['l', 'left'],
    ]);
    expect([...rightAgain.entries()]).toEqual([
      ['a', 'base'],
      ['r', 'right'],
      ['same', 'x'],
    ]);
    expect(right.has('l')).toBe(false);
    expect(left.has('r')).toBe(false);
    expect(base.size).toBe(1);
  });

  it('the same key on two branches keeps each branch its own value', () => {
    const base = AppendOnlyMap.empty<number>();
    const one = base.set('k', 1);
    const two = base.set('k', 2);
    expect([one.get('k'), two.get('k'), base.get('k')]).toEqual([1, 2, undefined]);
  });

  it('setting a key already there replaces it in the new version only', () => {
    const one = AppendOnlyMap.empty<number>().set('k', 1);
    const two = one.set('k', 2);
    expect([one.get('k'), two.get('k'), two.size]).toEqual([1, 2, 1]);
  });

  it('keys are text, "__proto__" included', () => {
    const map = AppendOnlyMap.empty<number>().set('__proto__', 1).set('constructor', 2);
    expect([map.get('__proto__'), map.get('constructor'), map.get('toString')]).toEqual([
      1,
      2,
      undefined,
    ]);
  });

  it('grows in linear time: 100,000 sets well under a second', () => {
    let map = AppendOnlyMap.empty<number>();
    const started = performance.now();
    for (let i = 0; i < 100_000; i++) map = map.set(`k${i}`, i);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(map.get('k99999')).toBe(99_999);
  });
});
