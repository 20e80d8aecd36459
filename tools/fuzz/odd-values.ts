import fc from 'fast-check';

/**
 * Values that have broken services before: the odd unicode, the numbers at the edges of what
 * JSON and JavaScript agree on, the keys that reach prototypes. fast-check draws among them and
 * mixes them with its own strings, so the set is a start, not a limit.
 */

export const ODD_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00y',
  '\ud83d\ude00',
  '\u202e\u0644\u0627',
  '\u200b\u200d\ufeff',
  'e\u0301\u0301\u0301',
  '\uffff\ufffe',
  '\u2028\u2029',
  '\r\n\t\v\f\b',
  '<script>alert(1)</script>',
  "'; DROP TABLE payments; --",
  "' OR '1'='1",
  '%00%ff%2e%2e%2f',
  '../../etc/passwd',
  '${7*7}{{7*7}}',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'NaN',
  '1e309',
  '-0',
  '0x10',
  'true',
  '[]',
  '{}',
  '\\',
  '"',
  'pay_',
  'pay_01ARZ3NDEKTSV4RRFFQ69G5FAV',
  'sk_test_',
  '+221700000002',
  '+2217000000021',
  '٠١٢٣',
  'Ｘａａｌｉｓ',
];

export const PROTO_KEYS: readonly string[] = [
  '__proto__',
  'constructor',
  'prototype',
  '__defineGetter__',
  'hasOwnProperty',
  'toString',
  'valueOf',
];

export const EDGE_NUMBERS: readonly number[] = [
  0,
  -0,
  -1,
  1,
  0.5,
  1.000000001,
  99.99,
  2 ** 31 - 1,
  2 ** 31,
  2 ** 32,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  -Number.MAX_SAFE_INTEGER - 2,
  1e21,
  1e308,
  -1e308,
  5e-324,
];

/** A string among the odd ones, a random one of any unicode, or a long one. */
export const oddString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ODD_STRINGS) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom('a', '\u00e9', '\ud83d\ude00', '\u0000'),
        fc.integer({ min: 100, max: 70_000 }),
      )
      .map(([unit, count]) => unit.repeat(count)),
  },
);

export const edgeNumber: fc.Arbitrary<number> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...EDGE_NUMBERS) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.integer() },
);

/** JSON of any shape, keys included odd ones. */
export const anyJson: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 4 });

/** An object that owns `key` (a literal `{ __proto__: … }` would set the prototype instead). */
export function withOwnKey(target: object, key: string, value: unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...target };
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

/** `[[[…]]]` or `{"a":{"a":…}}` nested `depth` deep, as JSON text. */
export function deepJsonText(depth: number, shape: 'array' | 'object'): string {
  return shape === 'array'
    ? `${'['.repeat(depth)}${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}
