import { plainToInstance } from 'class-transformer';
import { defaultMetadataStorage as transformerStorage } from 'class-transformer/cjs/storage';
import { getMetadataStorage, validateSync, ValidationTypes } from 'class-validator';
import { validateFast, type FastValidationOptions } from '../fast-validation';
import { seededRandom } from './seeded-random';

/**
 * Differential checks of `validateFast` against the libraries it stands in for: payloads made
 * from a class's own rules (mostly valid, some broken at one field, some with extra fields or odd
 * JSON), each validated both ways. Whenever the fast path answers, its instance must be exactly
 * the libraries' (same classes, same keys in the same order, same values), and the libraries must
 * find no error; whenever the libraries accept a plain payload, the fast path must have answered.
 */
export interface ValidationComparison {
  /** Payloads the fast path answered (and the libraries accepted, with the same instance). */
  answered: number;
  /**
   * Payloads the fast path left to the libraries: they refused them, or (an Object.prototype key
   * sent as a field) took them in a way the fast path does not follow.
   */
  declined: number;
}

type Rule = ReturnType<
  ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']
>[number];
type AnyClass = abstract new (...args: never[]) => unknown;
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const storage = getMetadataStorage();

/** `count` payloads of `Class` from a seeded generator, each validated both ways. */
export function compareWithLibraries(
  Class: new () => object,
  options: FastValidationOptions,
  count = 200,
  seed = 1,
): ValidationComparison {
  const random = seededRandom(seed);
  const result: ValidationComparison = { answered: 0, declined: 0 };
  for (let index = 0; index < count; index++) {
    const text = JSON.stringify(payloadOf(Class, random, index === 0 ? 0 : 0.12, 0));
    const extra =
      random() < 0.1 ? EXTRA_FIELDS[Math.floor(random() * EXTRA_FIELDS.length)] : undefined;
    const json =
      extra === undefined ? text : text === '{}' ? `{${extra}}` : `{${extra},${text.slice(1)}`;
    // A key of Object.prototype is left to the libraries (which drop it silently), by design.
    const outcome = compareOne(Class, json, options, extra !== undefined && extra !== '"extra":1');
    result[outcome]++;
  }
  return result;
}

/** One payload, given as JSON text (parsed afresh for each path). */
export function compareOne(
  Class: new () => object,
  json: string,
  options: FastValidationOptions,
  fastMayDecline = false,
): keyof ValidationComparison {
  return compareValue(Class, () => JSON.parse(json) as unknown, options, fastMayDecline);
}

/**
 * One payload, made afresh for each path by `make` (so a DTO instance or any other value can be
 * compared). Throws where the two paths disagree.
 */
export function compareValue(
  Class: new () => object,
  make: () => unknown,
  options: FastValidationOptions,
  fastMayDecline = false,
): keyof ValidationComparison {
  const fast = validateFast(Class, make(), options);
  const slow = plainToInstance(Class, make() as object, {
    exposeDefaultValues: options.exposeDefaultValues,
  });
  const errors = validateSync(slow, {
    whitelist: true,
    forbidNonWhitelisted: options.unknownProperties === 'refuse',
    forbidUnknownValues: true,
  });
  const where = `${Class.name} ${describePayload(make())}`;
  if (fast === undefined) {
    if (errors.length === 0 && !fastMayDecline) {
      throw new Error(`fast path refused a valid payload: ${where}`);
    }
    return 'declined';
  }
  if (errors.length > 0) {
    throw new Error(`fast path accepted an invalid payload: ${where}: ${JSON.stringify(errors)}`);
  }
  const [mine, theirs] = [shapeOf(fast), shapeOf(slow)];
  if (JSON.stringify(mine) !== JSON.stringify(theirs)) {
    throw new Error(
      `instances differ for ${where}:\n${JSON.stringify(mine)}\n${JSON.stringify(theirs)}`,
    );
  }
  return 'answered';
}

function describePayload(payload: unknown): string {
  try {
    return JSON.stringify(shapeOf(payload));
  } catch {
    return String(payload);
  }
}

/** Classes, keys in order and values, so two instances compare by everything a caller can see. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return { array: value.map(shapeOf) };
  if (typeof value === 'object' && value !== null) {
    return {
      class: Object.getPrototypeOf(value)?.constructor?.name ?? null,
      entries: Object.keys(value).map((key) => [
        key,
        shapeOf((value as Record<string, unknown>)[key]),
      ]),
    };
  }
  return { type: typeof value, value: value === undefined ? '(undefined)' : value };
}

// ---- payloads from rules ----

function payloadOf(Class: AnyClass, random: () => number, breakRate: number, depth: number): Json {
  const grouped = storage.groupByPropertyName(
    storage.getTargetValidationMetadatas(
      Class,
      undefined as unknown as string,
      false,
      false,
      undefined,
    ),
  );
  const payload: Record<string, Json> = {};
  for (const [name, rules] of Object.entries(grouped)) {
    const optional = rules.some((rule) => rule.type === ValidationTypes.CONDITIONAL_VALIDATION);
    if (optional && random() < 0.3) continue;
    if (random() < breakRate) {
      const odd = oddValue(rules, random);
      if (odd !== undefined) payload[name] = odd;
      continue;
    }
    payload[name] = goodValue(Class, name, rules, random, depth);
  }
  return payload;
}

function goodValue(
  Class: AnyClass,
  name: string,
  rules: Rule[],
  random: () => number,
  depth: number,
): Json {
  const named = new Map(rules.map((rule) => [constraintName(rule), rule]));
  const nested = rules.some((rule) => rule.type === ValidationTypes.NESTED_VALIDATION);
  const Type = nested ? nestedType(Class, name) : undefined;
  const one = (): Json => {
    if (Type !== undefined) return depth > 3 ? {} : payloadOf(Type, random, 0.05, depth + 1);
    return scalarFor(named, random);
  };
  if (named.has('isArray')) {
    const min = Number(named.get('arrayMinSize')?.constraints[0] ?? 0);
    const max = Number(named.get('arrayMaxSize')?.constraints[0] ?? min + 3);
    const size = min + Math.floor(random() * (Math.min(max, min + 3) - min + 1));
    return Array.from({ length: size }, one);
  }
  return one();
}

function scalarFor(named: Map<string, Rule>, random: () => number): Json {
  const rule = (key: string) => named.get(key)?.constraints ?? [];
  if (named.has('isIn')) {
    const allowed = rule('isIn')[0] as Json[];
    return allowed[Math.floor(random() * allowed.length)];
  }
  if (named.has('matches')) return sampleFor(rule('matches')[0] as RegExp | string);
  if (named.has('isInt') || named.has('min') || named.has('max')) {
    const min = Number(rule('min')[0] ?? 0);
    const max = Number(rule('max')[0] ?? min + 1000);
    return min + Math.floor(random() * (Math.min(max, min + 1000) - min + 1));
  }
  if (named.has('isBoolean')) return random() < 0.5;
  if (named.has('isObject') || named.has('isMetadata')) return { order: 'A-1' };
  if (named.has('isEmail')) return 'awa@example.sn';
  if ([...named.keys()].some((key) => /url/i.test(key))) return 'https://shop.example.sn/back';
  const length = Number(rule('isLength')[0] ?? rule('minLength')[0] ?? 1);
  return 'x'.repeat(Math.max(length, 1) + Math.floor(random() * 5));
}

/** A value likely to break one rule, or to test an edge of plain JSON. */
function oddValue(rules: Rule[], random: () => number): Json | undefined {
  const named = new Map(rules.map((rule) => [constraintName(rule), rule]));
  const limit = (key: string) => Number(named.get(key)?.constraints[0]);
  const odd: Array<Json | undefined> = [
    undefined,
    null,
    '',
    1.5,
    -1,
    0,
    true,
    'x',
    [],
    {},
    [1, 'two'],
    { nested: { deep: [null] } },
    Number.isFinite(limit('maxLength')) ? 'y'.repeat(limit('maxLength') + 1) : '   ',
    Number.isFinite(limit('max')) ? limit('max') + 1 : 2 ** 53,
    Number.isFinite(limit('min')) ? limit('min') - 1 : -(2 ** 31),
  ];
  return odd[Math.floor(random() * odd.length)];
}

const EXTRA_FIELDS = [
  '"extra":1',
  '"__proto__":{"polluted":true}',
  '"toString":"x"',
  '"constructor":"x"',
];

function constraintName(rule: Rule): string {
  if (rule.type !== ValidationTypes.CUSTOM_VALIDATION) return rule.type;
  return storage.getTargetValidatorConstraints(rule.constraintCls)[0]?.name ?? rule.type;
}

function nestedType(Class: AnyClass, name: string): AnyClass | undefined {
  const typed = transformerStorage.findTypeMetadata(Class, name);
  return typed?.typeFunction?.() as AnyClass | undefined;
}

const ID_BODY = '01JD8K3M5N7P9QRSTVWXYZ0123';
const STRING_SAMPLES = [
  'x',
  'awa@example.sn',
  '+221771234567',
  '2026-11-22T10:00:00.000Z',
  ...[
    'mer',
    'usr',
    'pay',
    're',
    'sub',
    'in',
    'po',
    'aw',
    'agk',
    'key',
    'we',
    'evt',
    'whd',
    'ex',
    'exq',
  ].map((prefix) => `${prefix}_${ID_BODY}`),
  `refund:re_${ID_BODY}`,
  `payout:po_${ID_BODY}`,
];

function sampleFor(pattern: RegExp | string): string {
  const regex = typeof pattern === 'string' ? new RegExp(pattern) : pattern;
  return STRING_SAMPLES.find((sample) => regex.test(sample)) ?? 'no sample matches';
}
