import fc from 'fast-check';
import { anyJson, edgeNumber, oddString, PROTO_KEYS, withOwnKey } from './odd-values';
import type { JsonSchema } from './openapi-routes';

export interface ValueSources {
  /**
   * Real values (ids of seeded objects) for a field or parameter of this name, if the harness has
   * any: a refund's `payment` field is then sometimes a payment that exists.
   */
  realValuesFor(name: string): readonly string[];
  /** The host of every URL a valid value holds: one that never resolves, so nothing is called. */
  urlHost: string;
}

/** Objects and arrays are generated this deep; below, generic JSON stands in. */
const MAX_DEPTH = 6;

/** A value the schema accepts (as far as the schema says: the service may know more rules). */
export function validOf(
  schema: JsonSchema,
  sources: ValueSources,
  name = '',
  depth = 0,
): fc.Arbitrary<unknown> {
  if (depth > MAX_DEPTH) return anyJson;
  if (schema.enum && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives && alternatives.length > 0) {
    return fc.oneof(...alternatives.map((option) => validOf(option, sources, name, depth + 1)));
  }
  if (schema.allOf && schema.allOf.length > 0) {
    return validOf(mergeAll(schema), sources, name, depth + 1);
  }
  const types = typesOf(schema);
  if (types.length === 0) return anyJson;
  const byType = types.map((type) => validOfType(type, schema, sources, name, depth));
  const value = byType.length === 1 ? byType[0]! : fc.oneof(...byType);
  return schema.nullable ? fc.oneof({ weight: 9, arbitrary: value }, fc.constant(null)) : value;
}

function validOfType(
  type: string,
  schema: JsonSchema,
  sources: ValueSources,
  name: string,
  depth: number,
): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return validString(schema, sources, name);
    case 'integer':
    case 'number':
      return validNumber(schema);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items = schema.items ?? {};
      const minLength = schema.minItems ?? 1;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 4, 4));
      return fc.uniqueArray(validOf(items, sources, name, depth + 1), {
        minLength,
        maxLength,
        selector: (value) => JSON.stringify(value),
      });
    }
    case 'object':
      return validObject(schema, sources, depth);
    default:
      return anyJson;
  }
}

function validString(
  schema: JsonSchema,
  sources: ValueSources,
  name: string,
): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 24, 24));
  const fits = (value: string) =>
    value.length >= minLength && value.length <= (schema.maxLength ?? Infinity);
  let generic: fc.Arbitrary<string>;
  if (schema.pattern !== undefined && compiles(schema.pattern)) {
    generic = fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
  } else if (schema.format === 'email') {
    generic = fc.emailAddress().filter(fits);
  } else if (schema.format === 'uri' || schema.format === 'url') {
    generic = fc
      .stringMatching(/^[a-z0-9]{1,16}$/)
      .map((path) => `https://${sources.urlHost}/${path}`);
  } else if (schema.format === 'date-time') {
    generic = fc
      .date({ min: new Date('2020-01-01'), max: new Date('2035-01-01'), noInvalidDate: true })
      .map((date) => date.toISOString());
  } else {
    generic = fc.string({ unit: 'grapheme-ascii', minLength: Math.max(minLength, 1), maxLength });
  }
  const real = sources.realValuesFor(name);
  return real.length === 0
    ? generic
    : fc.oneof(
        { weight: 2, arbitrary: fc.constantFrom(...real) },
        { weight: 1, arbitrary: generic },
      );
}

function validNumber(schema: JsonSchema): fc.Arbitrary<number> {
  const low = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : undefined;
  const high =
    typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - 1 : undefined;
  // Numbers in this API are amounts, limits and hours: whole, and rarely negative.
  const min = Math.ceil(low ?? schema.minimum ?? 0);
  const max = Math.floor(high ?? schema.maximum ?? 1_000_000);
  if (min > max) return fc.constant(min);
  // Small amounts mostly, so refunds and payments find the balance they need.
  return fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min, max: Math.min(max, min + 20_000) }) },
    { weight: 1, arbitrary: fc.integer({ min, max }) },
  );
}

function validObject(schema: JsonSchema, sources: ValueSources, depth: number) {
  const properties = schema.properties ?? {};
  const names = Object.keys(properties);
  const additional = schema.additionalProperties;
  if (names.length === 0) {
    const values =
      typeof additional === 'object' ? validOf(additional, sources, '', depth + 1) : anyJson;
    return fc.dictionary(
      fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 12 }),
      values,
      {
        maxKeys: 3,
      },
    );
  }
  const required = (schema.required ?? []).filter((key) => names.includes(key));
  return fc.record(
    Object.fromEntries(
      names.map((key) => [key, validOf(properties[key]!, sources, key, depth + 1)]),
    ),
    { requiredKeys: required },
  );
}

/** How a mutation changes the one place it picks. */
export type Mutation =
  | { kind: 'drop' }
  | { kind: 'wrong_type'; value: unknown }
  | { kind: 'boundary'; pick: number }
  | { kind: 'odd_string'; value: string }
  | { kind: 'extra_key'; key: string; value: unknown }
  | { kind: 'taint'; char: string };

/**
 * Characters CONTRACT 2 refuses in any string: a string field of a valid body that gains one must
 * turn the request into a 400, whatever else is right in it.
 */
export const TAINTS: readonly string[] = ['\u0000', '\ud800', '\udfff'];

export const mutationArbitrary: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ kind: 'drop' as const }) },
  {
    weight: 3,
    arbitrary: fc
      .oneof(
        fc.constant(null),
        fc.boolean(),
        edgeNumber,
        oddString,
        fc.constant([]),
        fc.constant({}),
        fc.array(anyJson, { maxLength: 3 }),
        anyJson,
      )
      .map((value) => ({ kind: 'wrong_type' as const, value })),
  },
  { weight: 3, arbitrary: fc.nat().map((pick) => ({ kind: 'boundary' as const, pick })) },
  { weight: 3, arbitrary: oddString.map((value) => ({ kind: 'odd_string' as const, value })) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.oneof(fc.constantFrom(...PROTO_KEYS), oddString, fc.string({ maxLength: 10 })),
        fc.oneof(anyJson, fc.constant({ polluted: true })),
      )
      .map(([key, value]) => ({ kind: 'extra_key' as const, key, value })),
  },
);

/** A valid value with one place in it changed: one field at a time, as the issue asks. */
export function mutatedOf(schema: JsonSchema, sources: ValueSources): fc.Arbitrary<unknown> {
  return fc
    .tuple(validOf(schema, sources), fc.nat(), mutationArbitrary)
    .map(([value, at, mutation]) => applyMutation(value, schema, at, mutation));
}

/** A valid value with a NUL or an unpaired surrogate added to one of its strings. */
export function taintedOf(schema: JsonSchema, sources: ValueSources): fc.Arbitrary<unknown> {
  return fc
    .tuple(validOf(schema, sources), fc.nat(), fc.constantFrom(...TAINTS))
    .map(([value, at, char]) => applyMutation(value, schema, at, { kind: 'taint', char }));
}

interface Place {
  /** Keys and indexes from the root; [] is the root itself. */
  path: Array<string | number>;
  schema: JsonSchema;
}

/** Every place in `value`, with the schema the document gives it (`{}` when it gives none). */
export function placesOf(value: unknown, schema: JsonSchema): Place[] {
  const places: Place[] = [];
  const walk = (node: unknown, nodeSchema: JsonSchema, path: Array<string | number>) => {
    places.push({ path, schema: nodeSchema });
    if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, nodeSchema.items ?? {}, [...path, index]));
    } else if (isPlainObject(node)) {
      for (const key of Object.keys(node)) {
        walk(node[key], propertySchema(nodeSchema, key), [...path, key]);
      }
    }
  };
  walk(value, schema, []);
  return places;
}

export function applyMutation(
  value: unknown,
  schema: JsonSchema,
  at: number,
  mutation: Mutation,
): unknown {
  const places = placesOf(value, schema);
  const place = places[at % places.length]!;
  switch (mutation.kind) {
    case 'drop':
      return place.path.length === 0 ? undefined : removeAt(value, place.path);
    case 'wrong_type':
    case 'odd_string':
      return replaceAt(value, place.path, mutation.value);
    case 'boundary': {
      const candidates = boundaryValues(place.schema);
      return replaceAt(value, place.path, candidates[mutation.pick % candidates.length]);
    }
    case 'taint': {
      // Among the strings only (a value with none gets a tainted key instead).
      const strings = places.filter(
        (candidate) => typeof getAt(value, candidate.path) === 'string',
      );
      if (strings.length === 0) {
        const target = objectPlace(value, places, at);
        return target === undefined
          ? value
          : updateAt(value, target, (node) => withOwnKey(node as object, `k${mutation.char}`, 'v'));
      }
      const chosen = strings[at % strings.length]!.path;
      return updateAt(value, chosen, (text) => `${text as string}${mutation.char}`);
    }
    case 'extra_key': {
      const target = objectPlace(value, places, at);
      if (target === undefined) return withOwnKey({ value }, mutation.key, mutation.value);
      return updateAt(value, target, (node) =>
        withOwnKey(node as object, mutation.key, mutation.value),
      );
    }
    default: {
      const unknownMutation: never = mutation;
      return unknownMutation;
    }
  }
}

/** Values just outside (and just inside) what the schema allows at one place. */
export function boundaryValues(schema: JsonSchema): unknown[] {
  const values: unknown[] = [];
  if (schema.enum && schema.enum.length > 0) {
    const first = String(schema.enum[0]);
    values.push(first.toUpperCase(), `${first} `, `${first}\u0000`, '', 0);
  }
  const types = typesOf(schema);
  if (types.includes('number') || types.includes('integer')) {
    const min = schema.minimum ?? 0;
    const max = schema.maximum ?? Number.MAX_SAFE_INTEGER;
    values.push(min - 1, min, min + 0.5, max, max + 1, -max, 0, -0, 1e21, String(min), `${max}`);
  }
  if (types.includes('string')) {
    const min = schema.minLength ?? 0;
    const max = schema.maxLength ?? 255;
    values.push(
      'a'.repeat(Math.max(0, min - 1)),
      'a'.repeat(max),
      'a'.repeat(max + 1),
      '\u00e9'.repeat(max + 1),
      '\ud83d\ude00'.repeat(Math.ceil((max + 1) / 2)),
      ' '.repeat(Math.max(min, 1)),
    );
    if (schema.format === 'uri' || schema.format === 'url') {
      values.push(
        'http://hooks.e2e.test/x',
        'https://127.0.0.1/x',
        'https://[::1]/x',
        'https://0x7f.1/x',
        'https://169.254.169.254/latest',
        'https://user:pass@hooks.e2e.test/x',
        'javascript:alert(1)',
        'https://',
        '//hooks.e2e.test',
      );
    }
    if (schema.format === 'email') values.push('a@', '@b.sn', 'a@b', 'A@B.SN', 'a@b.sn\u0000');
  }
  if (types.includes('array')) {
    values.push([], new Array(1000).fill(schema.items?.enum?.[0] ?? 'x'), [null]);
  }
  if (types.includes('object')) values.push({}, [], null);
  if (values.length === 0) values.push(null, '', 0, [], {});
  return values;
}

function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (typeof schema.type === 'string') return [schema.type];
  if (schema.properties) return ['object'];
  if (schema.items) return ['array'];
  return [];
}

function mergeAll(schema: JsonSchema): JsonSchema {
  const merged: JsonSchema = { ...schema, allOf: undefined, properties: {}, required: [] };
  for (const part of schema.allOf ?? []) {
    Object.assign(merged.properties!, part.properties ?? {});
    merged.required!.push(...(part.required ?? []));
    if (part.type !== undefined) merged.type = part.type;
  }
  return merged;
}

function propertySchema(schema: JsonSchema, key: string): JsonSchema {
  const own = schema.properties?.[key];
  if (own) return own;
  return typeof schema.additionalProperties === 'object' ? schema.additionalProperties : {};
}

function objectPlace(
  value: unknown,
  places: Place[],
  at: number,
): Array<string | number> | undefined {
  const objects = places.filter((place) => isPlainObject(getAt(value, place.path)));
  return objects.length === 0 ? undefined : objects[at % objects.length]!.path;
}

function getAt(value: unknown, path: Array<string | number>): unknown {
  let node = value;
  for (const step of path) node = (node as Record<string | number, unknown>)[step];
  return node;
}

function updateAt(
  value: unknown,
  path: Array<string | number>,
  change: (node: unknown) => unknown,
): unknown {
  if (path.length === 0) return change(value);
  const [step, ...rest] = path;
  if (Array.isArray(value)) {
    return value.map((item, index) => (index === step ? updateAt(item, rest, change) : item));
  }
  const key = String(step);
  return withOwnKey(
    value as object,
    key,
    updateAt((value as Record<string, unknown>)[key], rest, change),
  );
}

function replaceAt(value: unknown, path: Array<string | number>, replacement: unknown): unknown {
  return updateAt(value, path, () => replacement);
}

function removeAt(value: unknown, path: Array<string | number>): unknown {
  const parent = path.slice(0, -1);
  const last = path[path.length - 1]!;
  return updateAt(value, parent, (node) => {
    if (Array.isArray(node)) return node.filter((_, index) => index !== last);
    const copy = { ...(node as Record<string, unknown>) };
    delete copy[String(last)];
    return copy;
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}
