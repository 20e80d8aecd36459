import fc from 'fast-check';
import type { JsonSchema } from './openapi-routes';
import { badBodyReason } from './properties';
import {
  applyMutation,
  boundaryValues,
  mutatedOf,
  placesOf,
  taintedOf,
  validOf,
  type ValueSources,
} from './schema-arbitraries';

const payment: JsonSchema = {
  type: 'object',
  properties: {
    amount: { type: 'number', minimum: 1, maximum: 100_000_000 },
    currency: { type: 'string', enum: ['XOF'] },
    description: { type: 'string', maxLength: 200 },
    customer: {
      type: 'object',
      properties: { phone: { type: 'string', pattern: '^\\+2217[0-9]{8}$' } },
    },
    success_url: { type: 'string', format: 'uri' },
    metadata: { type: 'object', additionalProperties: { type: 'string', maxLength: 500 } },
    event_types: { type: 'array', items: { type: 'string', enum: ['payment.succeeded', '*'] } },
  },
  required: ['amount'],
};

const sources: ValueSources = {
  urlHost: 'hooks.e2e.test',
  realValuesFor: (name) => (name === 'payment' ? ['pay_1', 'pay_2'] : []),
};

describe('validOf: values the schema accepts', () => {
  it('keeps every bound the schema states', () => {
    fc.assert(
      fc.property(validOf(payment, sources), (value) => {
        const body = value as Record<string, unknown>;
        expect(Number.isInteger(body.amount)).toBe(true);
        expect(body.amount).toBeGreaterThanOrEqual(1);
        expect(body.amount).toBeLessThanOrEqual(100_000_000);
        if ('currency' in body) expect(body.currency).toBe('XOF');
        if ('description' in body)
          expect((body.description as string).length).toBeLessThanOrEqual(200);
        const customer = body.customer as { phone?: string } | undefined;
        if (customer?.phone !== undefined) expect(customer.phone).toMatch(/^\+2217[0-9]{8}$/);
        if ('success_url' in body)
          expect(body.success_url).toMatch(/^https:\/\/hooks\.e2e\.test\//);
        for (const entry of Object.values((body.metadata ?? {}) as Record<string, unknown>)) {
          expect(typeof entry).toBe('string');
        }
        const types = (body.event_types ?? []) as string[];
        expect(new Set(types).size).toBe(types.length);
        expect(Object.keys(body).every((key) => key in payment.properties!)).toBe(true);
      }),
      { seed: 1, numRuns: 300 },
    );
  });

  it('draws a field from the real values of its name', () => {
    const refund: JsonSchema = {
      type: 'object',
      properties: { payment: { type: 'string' } },
      required: ['payment'],
    };
    const drawn = fc.sample(validOf(refund, sources), { seed: 3, numRuns: 200 }) as Array<{
      payment: string;
    }>;
    expect(drawn.filter((body) => body.payment.startsWith('pay_')).length).toBeGreaterThan(50);
  });

  it('falls back to any JSON where the schema says nothing', () => {
    const values = fc.sample(validOf({}, sources), { seed: 5, numRuns: 200 });
    expect(
      new Set(values.map((value) => (Array.isArray(value) ? 'array' : typeof value))).size,
    ).toBeGreaterThan(3);
  });
});

describe('mutations: one place of a valid value changed', () => {
  const value = { amount: 10, customer: { phone: '+221771234567' } };

  it('finds every place, with the schema it has there', () => {
    expect(placesOf(value, payment).map((place) => place.path)).toEqual([
      [],
      ['amount'],
      ['customer'],
      ['customer', 'phone'],
    ]);
    expect(placesOf(value, payment)[3]!.schema).toEqual({
      type: 'string',
      pattern: '^\\+2217[0-9]{8}$',
    });
  });

  it('drops, replaces and adds at the place it picks, leaving the rest', () => {
    expect(applyMutation(value, payment, 3, { kind: 'drop' })).toEqual({
      amount: 10,
      customer: {},
    });
    expect(applyMutation(value, payment, 1, { kind: 'wrong_type', value: '10' })).toEqual({
      amount: '10',
      customer: { phone: '+221771234567' },
    });
    expect(applyMutation(value, payment, 1, { kind: 'boundary', pick: 0 })).toEqual({
      ...value,
      amount: 0,
    });
    expect(value).toEqual({ amount: 10, customer: { phone: '+221771234567' } });
  });

  it('adds a `__proto__` key as a key, which JSON then carries', () => {
    const mutated = applyMutation(value, payment, 0, {
      kind: 'extra_key',
      key: '__proto__',
      value: { polluted: true },
    });
    expect(JSON.stringify(mutated)).toBe(
      '{"amount":10,"customer":{"phone":"+221771234567"},"__proto__":{"polluted":true}}',
    );
    expect(Object.getPrototypeOf(mutated)).toBe(Object.prototype);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('taints one string with a character the contract refuses, and nothing else', () => {
    expect(applyMutation(value, payment, 3, { kind: 'taint', char: '\u0000' })).toEqual({
      amount: 10,
      customer: { phone: '+221771234567\u0000' },
    });
    // A value without strings gets a tainted key instead.
    expect(applyMutation({ amount: 10 }, payment, 1, { kind: 'taint', char: '\ud800' })).toEqual({
      amount: 10,
      'k\ud800': 'v',
    });
    const tainted = fc.sample(taintedOf(payment, sources), { seed: 6, numRuns: 100 });
    for (const body of tainted) {
      expect(badBodyReason(Buffer.from(JSON.stringify(body)))).toMatch(/NUL|unpaired surrogate/);
    }
  });

  it('gives the values just past each bound', () => {
    expect(boundaryValues({ type: 'number', minimum: 1, maximum: 720 })).toEqual(
      expect.arrayContaining([0, 1, 1.5, 720, 721, -720, 1e21, '1', '720']),
    );
    const strings = boundaryValues({ type: 'string', minLength: 2, maxLength: 3 }) as string[];
    expect(strings).toEqual(expect.arrayContaining(['a', 'aaa', 'aaaa']));
  });

  it('changes the value: a mutated body is never the valid one it came from', () => {
    const required: JsonSchema = {
      type: 'object',
      properties: { amount: { type: 'integer', minimum: 1 } },
      required: ['amount'],
    };
    fc.assert(
      fc.property(
        fc.tuple(validOf(required, sources), fc.nat(), fc.constant({ kind: 'drop' as const })),
        ([body, at, drop]) => {
          const mutated = applyMutation(body, required, at, drop);
          expect(mutated).not.toEqual(body);
        },
      ),
      { seed: 2, numRuns: 100 },
    );
    expect(fc.sample(mutatedOf(required, sources), { seed: 4, numRuns: 50 }).length).toBe(50);
  });
});
