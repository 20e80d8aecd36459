import { DomainError } from '@xaalis/kernel';
import { jsonBodyProblem } from './json-body-rules';

/** The body as a client sends it, and as the parser hands it over. */
const problemOf = (text: string) => jsonBodyProblem(JSON.parse(text), text);
const nestedObjects = (levels: number, inner = '1') =>
  '{"a":'.repeat(levels) + inner + '}'.repeat(levels);
const nestedArrays = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

describe('jsonBodyProblem', () => {
  it('accepts 32 levels of objects and arrays, and refuses a 33rd with its path', () => {
    expect(problemOf(nestedObjects(32))).toBeUndefined();
    expect(problemOf(`{"items":[${nestedObjects(30)}]}`)).toBeUndefined();
    const error = problemOf(nestedObjects(33));
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({
      code: 'validation_error',
      message: 'The request body is nested deeper than 32 levels of objects and arrays.',
      details: [{ field: Array(32).fill('a').join('.'), issue: 'is nested deeper than 32 levels' }],
    });
    expect(problemOf(`{"amount":${nestedArrays(32)}}`)?.details).toEqual([
      { field: `amount${'[0]'.repeat(31)}`, issue: 'is nested deeper than 32 levels' },
    ]);
  });

  it('accepts an object of 1,000 members and refuses one of 1,001, naming where', () => {
    const object = (size: number) =>
      Object.fromEntries(Array.from({ length: size }, (_, i) => [`k${i}`, 0]));
    const json = (value: unknown) => problemOf(JSON.stringify(value));
    expect(json({ metadata: object(1_000) })).toBeUndefined();
    const refused = json({ customer: { extra: object(1_001) } });
    expect(refused).toMatchObject({
      code: 'validation_error',
      message: 'An object in the request (customer.extra) has more than 1000 fields.',
      details: [
        { field: 'customer.extra.k1000', issue: 'is past the 1000 fields an object may have' },
      ],
    });
    expect(json(object(100_000))).toMatchObject({
      message: 'An object in the request (the body) has more than 1000 fields.',
    });
  });

  it('walks a body nested far deeper than the call stack allows', () => {
    expect(problemOf(nestedArrays(200_000))?.message).toContain('deeper than 32 levels');
    expect(problemOf(nestedObjects(100_000))?.message).toContain('deeper than 32 levels');
  });

  it('names each string, value or key, holding NUL or an unpaired surrogate', () => {
    const text = String.raw`{"a":"ok","b":"x\u0000","c":{"d\u0000e":"ok","f":["\ud800","ok"]},"g":"\udc00y"}`;
    const error = problemOf(text);
    expect(error?.message).toBe('Invalid request: b, g, c.d\u0000e, c.f[0].');
    expect(error?.details).toEqual([
      { field: 'b', issue: 'must not contain the NUL character (U+0000)' },
      { field: 'g', issue: 'must not contain an unpaired UTF-16 surrogate' },
      { field: 'c.d\u0000e', issue: 'name must not contain the NUL character (U+0000)' },
      { field: 'c.f[0]', issue: 'must not contain an unpaired UTF-16 surrogate' },
    ]);
  });

  it('accepts paired surrogates, other escapes and an escaped backslash before u0000', () => {
    expect(
      problemOf(String.raw`{"a":"\ud83d\ude00","b":"\u00e9\n","c":"\\u0000"}`),
    ).toBeUndefined();
  });

  it('checks a body that is a bare string, and names at most 10 strings', () => {
    expect(problemOf(String.raw`"\u0000"`)).toMatchObject({
      message: 'Invalid request: the body.',
      details: [{ field: '', issue: 'must not contain the NUL character (U+0000)' }],
    });
    const many = JSON.stringify(Array.from({ length: 50 }, () => '\u0000'));
    expect(problemOf(many)?.details).toHaveLength(10);
  });

  it('skips the strings when the text has no \\u escape, the only way JSON carries them', () => {
    // A parsed value holding NUL with a text that cannot have produced it: the look is skipped.
    expect(jsonBodyProblem({ a: 'x\u0000' }, '{"a":"x"}')).toBeUndefined();
    expect(jsonBodyProblem({ a: 'x\u0000' }, String.raw`{"a":"x\u0000"}`)).toBeDefined();
  });
});
