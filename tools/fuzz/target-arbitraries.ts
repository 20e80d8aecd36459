import fc from 'fast-check';
import { oddString, PROTO_KEYS } from './odd-values';
import type { FuzzRoute, ParamSpec } from './openapi-routes';
import { boundaryValues, validOf, type ValueSources } from './schema-arbitraries';
import { allValues, poolFor, type Pools } from './value-pools';

/** A request target: path and query, and whether its characters go as UTF-8 or as raw bytes. */
export interface Target {
  target: string;
  /** `latin1`: each character is one byte, for bytes that are not UTF-8. */
  bytes: 'utf8' | 'latin1';
}

/** RFC 3986 unreserved characters stay; every other UTF-8 byte is %XX (lone surrogates too). */
export function percentEncode(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(char)
      ? char
      : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Segment values no route should choke on: too long, not UTF-8, encoded slashes, dots. */
const ODD_SEGMENTS: readonly string[] = [
  '',
  '.',
  '..',
  '%2e%2e',
  '%2F',
  '%5C',
  '%00',
  'a%00b',
  '%ff',
  '%c3%28',
  '%ed%a0%80',
  '%',
  '%zz',
  '%%32%35',
  'a%2Fb',
  ';x=1',
  'undefined',
  'null',
  '0',
  '-1',
  '%20',
  '+',
];

/** Query strings that are broken as a whole rather than in one value. */
const ODD_QUERIES: readonly string[] = [
  '?',
  '??',
  '?&&&',
  '?=',
  '?=1',
  '?%',
  '?%zz=1',
  '?a=%ff',
  '?a=%00',
  '?limit=1&limit=2',
  '?limit[]=1',
  '?limit[a]=1',
  '?__proto__[polluted]=1',
  '?constructor[prototype][polluted]=1',
  '?__proto__.polluted=1',
  '?starting_after=',
  '?limit=',
  '#fragment',
];

/**
 * The target of a case for `route`. Fitting: the template filled with real ids of the right kind
 * (or the values its schema allows), the required query parameters valid. Odd: ids of any kind or
 * none, query values out of bounds or broken, and sometimes the whole path bent (a trailing slash,
 * upper case, an extra segment, raw bytes).
 */
export function targetArbitrary(
  route: FuzzRoute,
  pools: Pools,
  sources: ValueSources,
  fitting: boolean,
): fc.Arbitrary<Target> {
  const segments = route.template.split('/');
  const segmentArbs = segments.map((segment, index): fc.Arbitrary<Drawn> => {
    const match = /^\{(.+)\}$/.exec(segment);
    if (!match) return fc.constant(segment);
    const spec = route.pathParams.find((param) => param.name === match[1]) ?? {
      name: match[1]!,
      required: true,
      schema: {},
    };
    return pathValueArbitrary(spec, pools, sources, segments[index - 1], fitting);
  });
  // A list's cursor (`starting_after`) is one of the list's own items: the pool of its last segment.
  const listed = [...segments]
    .reverse()
    .find((segment) => segment !== '' && !segment.startsWith('{'));
  const itemPool = listed === undefined ? [] : poolFor(pools, listed);
  const query = queryArbitrary(route.query, sources, itemPool, fitting);
  // One row for every pool of the target: the seeded payments and their client secrets are kept
  // in step, so `/v1/public/payments/{id}?cs=` gets a pair that belongs together.
  const target = fc
    .tuple(fc.nat(), fc.tuple(...segmentArbs), query)
    .map(([row, parts, pairs]): Target => {
      const path = parts.map((part) => drawn(part, row)).join('/');
      const queryParts = pairs.map(
        ([name, value]) => `${name}=${percentEncode(drawn(value, row))}`,
      );
      return {
        target: `${path}${queryParts.length === 0 ? '' : `?${queryParts.join('&')}`}`,
        bytes: 'utf8',
      };
    });
  return fitting ? target : fc.tuple(target, pathBendArbitrary).map(([plain, bend]) => bend(plain));
}

/** A value, or the target's row of a pool of real values. */
type Drawn = string | { pool: readonly string[] };

function drawn(value: Drawn, row: number): string {
  return typeof value === 'string' ? value : value.pool[row % value.pool.length]!;
}

function pathValueArbitrary(
  spec: ParamSpec,
  pools: Pools,
  sources: ValueSources,
  previousSegment: string | undefined,
  fitting: boolean,
): fc.Arbitrary<Drawn> {
  const own = poolFor(pools, spec.name, previousSegment);
  const any = allValues(pools);
  const fromSchema = validOf(spec.schema, sources, spec.name).map((value) =>
    percentEncode(typeof value === 'string' ? value : (JSON.stringify(value) ?? '')),
  );
  if (fitting) {
    if (spec.schema.enum) return fromSchema;
    if (own.length > 0) return fc.constant({ pool: own });
    return any.length > 0 ? fc.constantFrom(...any) : fromSchema;
  }
  const real: Array<fc.WeightedArbitrary<Drawn>> = [];
  if (own.length > 0) real.push({ weight: 2, arbitrary: fc.constantFrom(...own) });
  if (any.length > 0) real.push({ weight: 2, arbitrary: fc.constantFrom(...any) });
  return fc.oneof(
    ...real,
    { weight: 1, arbitrary: fromSchema },
    { weight: 2, arbitrary: fc.constantFrom(...ODD_SEGMENTS) },
    { weight: 2, arbitrary: oddString.map(percentEncode) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(...(own.length > 0 ? own : ['x'])),
          fc.constantFrom(1, 200, 255, 256, 1_000, 5_000),
        )
        .map(([id, length]) => `${id}${'a'.repeat(Math.max(0, length - id.length))}`),
    },
  );
}

/** Query parameters as `[encoded name, value]`; a value already encoded is marked raw. */
type QueryPair = [string, Drawn];

function queryArbitrary(
  params: ParamSpec[],
  sources: ValueSources,
  itemPool: readonly string[],
  fitting: boolean,
): fc.Arbitrary<QueryPair[]> {
  const valid = (param: ParamSpec): fc.Arbitrary<Drawn> => {
    const own = sources.realValuesFor(param.name);
    const real =
      own.length > 0 ? own : param.schema.type === 'string' && !param.schema.enum ? itemPool : [];
    const schemaValue = validOf(param.schema, sources, param.name).map(queryValue);
    return real.length > 0 ? fc.constant({ pool: real }) : schemaValue;
  };
  const one = (param: ParamSpec): fc.Arbitrary<Drawn | undefined> => {
    if (fitting) {
      return param.required
        ? valid(param)
        : fc.oneof(
            { weight: 3, arbitrary: fc.constant(undefined) },
            { weight: 1, arbitrary: valid(param) },
          );
    }
    return fc.oneof(
      fc.constant(undefined),
      valid(param),
      fc
        .tuple(fc.constant(boundaryValues(param.schema)), fc.nat())
        .map(([values, pick]) => queryValue(values[pick % values.length])),
      oddString,
    );
  };
  const declared = fc
    .tuple(...params.map(one))
    .map((values) =>
      values.flatMap((value, index): QueryPair[] =>
        value === undefined ? [] : [[percentEncode(params[index]!.name), value]],
      ),
    );
  if (fitting) return declared;
  const unknown = fc
    .array(
      fc.tuple(fc.oneof(fc.constantFrom(...PROTO_KEYS), fc.string({ maxLength: 8 })), oddString),
      {
        minLength: 1,
        maxLength: 2,
      },
    )
    .map((pairs) => pairs.map(([key, value]): QueryPair => [percentEncode(key), value]));
  return fc
    .tuple(
      declared,
      fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: unknown }),
    )
    .map(([known, extra]) => [...known, ...extra]);
}

function queryValue(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

type Bend = (target: Target) => Target;

/** Most targets go as generated; some are bent the ways clients and scanners bend them. */
const pathBendArbitrary: fc.Arbitrary<Bend> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<Bend>((target) => target) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Bend>(
      (t) => ({ ...t, target: withPath(t.target, (path) => `${path}/`) }),
      (t) => ({ ...t, target: withPath(t.target, (path) => path.replace(/\//g, '//')) }),
      (t) => ({ ...t, target: withPath(t.target, (path) => path.toUpperCase()) }),
      (t) => ({ ...t, target: withPath(t.target, (path) => `${path}/extra`) }),
      (t) => ({ ...t, target: withPath(t.target, (path) => path.replace(/\/[^/]*$/, '')) }),
      (t) => ({ ...t, target: withPath(t.target, (path) => `/..${path}`) }),
      (t) => ({ ...t, target: withPath(t.target, (path) => path.replace(/\//g, '/./')) }),
      (t) => ({ ...t, target: withPath(t.target, (path) => path.replace(/\//g, '%2F')) }),
      (t) => ({ ...t, target: `http://fuzz.invalid${t.target}` }),
      (t) => ({ ...t, target: withPath(t.target, (path) => `${path}\u00e9\ud83d\ude00`) }),
      // Bytes that are not UTF-8, raw in the request line.
      (t) => ({ target: withPath(t.target, (path) => `${path}\xff\xfe`), bytes: 'latin1' }),
      (t) => ({ target: withPath(t.target, (path) => `${path}\xc0\xaf`), bytes: 'latin1' }),
      (t) => ({
        target: `${t.target}${t.target.includes('?') ? '&' : '?'}q=\xff`,
        bytes: 'latin1',
      }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(...ODD_QUERIES).map((odd): Bend => (t) => ({
      ...t,
      target: t.target.includes('?')
        ? `${t.target}&${odd.replace(/^\?/, '')}`
        : `${t.target}${odd}`,
    })),
  },
);

function withPath(target: string, change: (path: string) => string): string {
  const split = target.indexOf('?');
  return split < 0 ? change(target) : `${change(target.slice(0, split))}${target.slice(split)}`;
}
