import fc from 'fast-check';
import { anyJson, deepJsonText, withOwnKey } from './odd-values';
import type { FuzzRoute } from './openapi-routes';
import { mutatedOf, taintedOf, validOf, type ValueSources } from './schema-arbitraries';

/**
 * A body as a recipe, rendered to bytes only when sent: a shrunk counterexample then reads
 * `{ kind: 'deep', depth: 33 }` rather than 66 brackets, and shrinking finds the threshold.
 */
export type BodyRecipe =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'deep'; depth: number; shape: 'array' | 'object'; under?: string }
  | { kind: 'huge'; bytes: number; shape: 'string' | 'keys' | 'array' }
  | { kind: 'raw'; text: string; encoding: 'utf8' | 'latin1' };

export const BODY_LIMIT = 1024 * 1024;

/** Text that is almost JSON, or JSON in a form parsers disagree on. */
const MALFORMED: readonly string[] = [
  '{',
  '}',
  '{"amount":',
  '{"amount":1,}',
  "{'amount':1}",
  '{"amount":NaN}',
  '{"amount":Infinity}',
  '{"amount":-}',
  '{"amount":01}',
  '{"amount":+1}',
  '{"amount":.5}',
  '{"amount":1e999}',
  '{"amount":1}{"amount":2}',
  '{"amount":1} trailing',
  '{"amount":1 /* comment */}',
  '\ufeff{"amount":1}',
  '{"a":"\u0000"}',
  '{"a":"\\x41"}',
  '{"a":"\\u12"}',
  '{"a":"\\ud800"}',
  '{"a":"\\udc00\\ud800"}',
  '{"amount":1,"amount":"x"}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"a":{"__proto__":[]}}',
  '[]',
  'null',
  'true',
  '0',
  '""',
  ' ',
  '\r\n',
  'amount=1&currency=XOF',
  '<xml/>',
];

/** Bytes that are not UTF-8 (lone continuation, overlong, surrogate, truncated sequences). */
const NOT_UTF8: readonly string[] = [
  '{"a":"\xff"}',
  '{"a":"\xc0\xaf"}',
  '{"a":"\xed\xa0\x80"}',
  '{"a":"\xe2\x82"}',
  '\xfe\xff\x00{\x00}',
  '{"\xff":1}',
];

const json = (arbitrary: fc.Arbitrary<unknown>) =>
  arbitrary.map((value): BodyRecipe =>
    value === undefined ? { kind: 'none' } : { kind: 'json', value },
  );

/** What the document says the route takes: a valid body, or none. */
export function fittingBody(route: FuzzRoute, sources: ValueSources): fc.Arbitrary<BodyRecipe> {
  return route.body === undefined
    ? fc.constant({ kind: 'none' as const })
    : json(validOf(route.body, sources));
}

/** A body with one field mutated, of the wrong shape, deep, huge, or broken; or one where none goes. */
export function oddBody(route: FuzzRoute, sources: ValueSources): fc.Arbitrary<BodyRecipe> {
  const fieldNames = Object.keys(route.body?.properties ?? {});
  const hostile = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('deep' as const),
        depth: fc.oneof(
          fc.integer({ min: 30, max: 40 }),
          fc.constantFrom(64, 1_000, 10_000, 100_000),
        ),
        shape: fc.constantFrom('array' as const, 'object' as const),
        under: fc.option(fc.constantFrom(...(fieldNames.length > 0 ? fieldNames : ['a'])), {
          nil: undefined,
        }),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('huge' as const),
        bytes: fc.oneof(
          fc.integer({ min: BODY_LIMIT - 8, max: BODY_LIMIT + 8 }),
          fc.constantFrom(BODY_LIMIT / 2, 2 * BODY_LIMIT),
        ),
        shape: fc.constantFrom('string' as const, 'keys' as const, 'array' as const),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.oneof(
        fc
          .constantFrom(...MALFORMED)
          .map((text) => ({ kind: 'raw' as const, text, encoding: 'utf8' as const })),
        fc
          .constantFrom(...NOT_UTF8)
          .map((text) => ({ kind: 'raw' as const, text, encoding: 'latin1' as const })),
        fc.string({ unit: 'binary', maxLength: 64 }).map((text) => ({
          kind: 'raw' as const,
          text,
          encoding: 'utf8' as const,
        })),
      ),
    },
    { weight: 2, arbitrary: json(anyJson) },
    {
      weight: 2,
      arbitrary: json(
        fc
          .tuple(
            validOf(route.body ?? {}, sources),
            fc.constantFrom('__proto__', 'constructor', 'prototype'),
          )
          .map(([value, key]) =>
            typeof value === 'object' && value !== null && !Array.isArray(value)
              ? withOwnKey(
                  value,
                  key,
                  key === 'constructor' ? { prototype: { polluted: true } } : { polluted: true },
                )
              : value,
          ),
      ),
    },
  );
  if (route.body === undefined) {
    // A route that takes no body must ignore one or refuse it cleanly.
    return fc.oneof(
      { weight: 2, arbitrary: json(validOf({}, sources)) },
      { weight: 1, arbitrary: hostile },
    );
  }
  return fc.oneof(
    { weight: 6, arbitrary: json(mutatedOf(route.body, sources)) },
    { weight: 1, arbitrary: json(taintedOf(route.body, sources)) },
    { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
    { weight: 4, arbitrary: hostile },
  );
}

/** The recipe's bytes. */
export function renderBody(recipe: BodyRecipe): Buffer | undefined {
  switch (recipe.kind) {
    case 'none':
      return undefined;
    case 'json':
      return Buffer.from(JSON.stringify(recipe.value), 'utf8');
    case 'deep': {
      const deep = deepJsonText(recipe.depth, recipe.shape);
      return Buffer.from(
        recipe.under === undefined ? deep : `{${JSON.stringify(recipe.under)}:${deep}}`,
      );
    }
    case 'huge':
      return hugeBody(recipe.bytes, recipe.shape);
    case 'raw':
      return Buffer.from(recipe.text, recipe.encoding);
    default: {
      const unknownRecipe: never = recipe;
      return unknownRecipe;
    }
  }
}

/** Valid JSON of exactly `bytes` bytes (give or take a key's width). */
function hugeBody(bytes: number, shape: 'string' | 'keys' | 'array'): Buffer {
  if (shape === 'string') {
    const frame = '{"description":""}';
    return Buffer.from(`{"description":"${'a'.repeat(Math.max(0, bytes - frame.length))}"}`);
  }
  if (shape === 'array') {
    // `[0,0,…,0]` is 2 × count + 1 bytes.
    const count = Math.max(1, Math.floor((bytes - 1) / 2));
    return Buffer.from(`[${new Array(count).fill('0').join(',')}]`);
  }
  const parts: string[] = [];
  let size = 2;
  for (let index = 0; size < bytes; index += 1) {
    const part = `"k${index}":0`;
    parts.push(part);
    size += part.length + 1;
  }
  return Buffer.from(`{${parts.join(',')}}`);
}
