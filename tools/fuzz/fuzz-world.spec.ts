import { exactly } from './fuzz-world';

describe('pools of a fixed size', () => {
  it('keeps the first values, repeats them when there are fewer, and holds a placeholder when none', () => {
    expect(exactly(3, ['a', 'b', 'c', 'd'], 'none')).toEqual(['a', 'b', 'c']);
    expect(exactly(5, ['a', 'b'], 'none')).toEqual(['a', 'b', 'a', 'b', 'a']);
    expect(exactly(2, [], 'evt_none')).toEqual(['evt_none', 'evt_none']);
  });
});
