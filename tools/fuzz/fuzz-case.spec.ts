import fc from 'fast-check';
import { renderBody } from './body-arbitraries';
import { routeCaseArbitrary, toWire, type FuzzCase, type SendContext } from './fuzz-case';
import type { FuzzRoute } from './openapi-routes';
import { percentEncode, targetArbitrary } from './target-arbitraries';
import { poolFor } from './value-pools';

const refunds: FuzzRoute = {
  method: 'POST',
  template: '/v1/refunds',
  pathParams: [],
  query: [],
  headers: [],
  body: {
    type: 'object',
    properties: { payment: { type: 'string' }, amount: { type: 'number', minimum: 1 } },
    required: ['payment'],
  },
  bodyRequired: true,
  auth: ['bearer'],
};
const publicPayment: FuzzRoute = {
  method: 'GET',
  template: '/v1/public/payments/{id}',
  pathParams: [{ name: 'id', required: true, schema: { type: 'string' } }],
  query: [{ name: 'cs', required: true, schema: { type: 'string' } }],
  headers: [],
  bodyRequired: false,
  auth: [],
};
const pools = { payment: ['pay_a', 'pay_b', 'pay_c'], cs: ['cs_a', 'cs_b', 'cs_c'] };
const context = {
  pools,
  credentials: ['none', 'secret_test', 'session_owner'] as const,
  sources: { urlHost: 'hooks.e2e.test', realValuesFor: (name: string) => poolFor(pools, name) },
};

let keys = 0;
const send: SendContext = {
  sessionCookieName: 'better-auth.session_token',
  valueOf: (kind) => (kind === 'secret_test' ? 'sk_test_x' : undefined),
  freshKey: () => `fresh-${(keys += 1)}`,
  sharedKey: (slot) => `shared-${slot}`,
};

const base: FuzzCase = {
  route: 'POST /v1/refunds',
  declaresBody: true,
  method: 'POST',
  target: '/v1/refunds',
  targetBytes: 'utf8',
  credential: { kind: 'secret_test', style: 'canonical' },
  idempotencyKey: { kind: 'fresh' },
  contentType: 'application/json',
  body: { kind: 'json', value: { payment: 'pay_a' } },
  framing: { kind: 'length' },
  extraHeaders: [],
};

describe('cases for a route', () => {
  it('are all of that route, and mostly as the document says', () => {
    const cases = fc.sample(
      routeCaseArbitrary(refunds, { ...context, credentials: [...context.credentials] }),
      {
        seed: 11,
        numRuns: 400,
      },
    );
    expect(new Set(cases.map((c) => c.route))).toEqual(new Set(['POST /v1/refunds']));
    const fitting = cases.filter(
      (c) =>
        c.method === 'POST' &&
        c.target === '/v1/refunds' &&
        c.credential.kind === 'secret_test' &&
        c.credential.style === 'canonical' &&
        c.body.kind === 'json' &&
        c.framing.kind === 'length' &&
        c.extraHeaders.length === 0,
    );
    expect(fitting.length).toBeGreaterThan(40);
    expect(cases.some((c) => c.body.kind === 'deep')).toBe(true);
    expect(cases.some((c) => c.credential.kind !== 'secret_test')).toBe(true);
  });

  it('pair a payment with its own client secret when the target is as the document says', () => {
    const targets = fc.sample(targetArbitrary(publicPayment, pools, context.sources, true), {
      seed: 5,
      numRuns: 100,
    });
    const pairs = targets.map((t) =>
      /^\/v1\/public\/payments\/pay_(\w)\?cs=cs_(\w)$/.exec(t.target)?.slice(1),
    );
    expect(new Set(pairs.map((pair) => pair?.join()))).toEqual(new Set(['a,a', 'b,b', 'c,c']));
  });
});

describe('toWire: a case as the request sent', () => {
  const text = (fuzzCase: FuzzCase) => {
    const wire = toWire(fuzzCase, send);
    return { head: wire.headers, body: wire.body?.toString('latin1'), length: wire.contentLength };
  };

  it('sends the credential, a fresh key, JSON and the body', () => {
    expect(text(base)).toEqual({
      head: [
        ['authorization', 'Bearer sk_test_x'],
        ['idempotency-key', expect.stringMatching(/^fresh-\d+$/)],
        ['content-type', 'application/json'],
        ['accept', 'application/json'],
      ],
      body: '{"payment":"pay_a"}',
      length: undefined,
    });
  });

  it('frames a body in chunks, or with a length that lies', () => {
    expect(text({ ...base, framing: { kind: 'chunked' } })).toMatchObject({
      body: '13\r\n{"payment":"pay_a"}\r\n0\r\n\r\n',
      length: null,
    });
    expect(text({ ...base, framing: { kind: 'short', by: 5 } }).length).toBe(14);
    expect(text({ ...base, framing: { kind: 'bad_length', value: 'abc' } }).head).toContainEqual([
      'content-length',
      'abc',
    ]);
  });

  it('sends a key twice, or one every case shares', () => {
    const twice = text({ ...base, idempotencyKey: { kind: 'twice' } }).head.filter(
      ([name]) => name === 'idempotency-key',
    );
    expect(twice).toHaveLength(2);
    expect(text({ ...base, idempotencyKey: { kind: 'shared', slot: 2 } }).head).toContainEqual([
      'idempotency-key',
      'shared-2',
    ]);
  });

  it('renders deep and huge bodies from their recipes', () => {
    expect(
      renderBody({ kind: 'deep', depth: 3, shape: 'array', under: 'amount' })?.toString(),
    ).toBe('{"amount":[[[]]]}');
    const huge = renderBody({ kind: 'huge', bytes: 1024 * 1024 + 1, shape: 'string' })!;
    expect(huge.length).toBe(1024 * 1024 + 1);
    expect(() => JSON.parse(huge.toString())).not.toThrow();
    const array = renderBody({ kind: 'huge', bytes: 1001, shape: 'array' })!;
    expect(array.length).toBe(1001);
    expect(JSON.parse(array.toString())).toHaveLength(500);
  });
});

describe('percentEncode', () => {
  it('encodes every byte but the unreserved ones, lone surrogates too', () => {
    expect(percentEncode('pay_1-a.b~c')).toBe('pay_1-a.b~c');
    expect(percentEncode('a/b c')).toBe('a%2Fb%20c');
    expect(percentEncode('\u00e9')).toBe('%C3%A9');
    expect(percentEncode('\ud800')).toBe('%EF%BF%BD');
  });
});
