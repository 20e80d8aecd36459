import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ERROR_CODES, FixedClock } from '@xaalis/kernel';
import { sendRawHttp } from '@xaalis/testing';
import { statusFor } from './errors/status-for';
import { Readiness } from './observability/readiness';
import { errorOf, jsonOf } from './test-support/read-json';
import { baseUrlOf, createTestApp } from './test-support/test-app';

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        requestBody: { content: Record<string, { schema: unknown }> };
        security: unknown[];
        responses: Record<string, { content?: unknown; headers?: Record<string, unknown> }>;
      }
    >
  >;
  components: {
    schemas: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
    headers: Record<string, unknown>;
  };
}

/**
 * The edge over real HTTP, on a small Nest + Fastify app built with the library's own setup. No
 * database: the idempotency paths are in idempotency.int.spec.ts.
 */
describe('HTTP edge', () => {
  const clock = new FixedClock(new Date('2026-11-22T10:00:00.000Z'));
  let app: NestFastifyApplication;
  let base: string;

  beforeAll(async () => {
    app = await createTestApp({
      clock,
      config: {
        ipRateLimitPerSecond: 1,
        ipRateLimitBurst: 2,
        rateLimitPerSecond: 1,
        rateLimitBurst: 1,
      },
    });
    base = baseUrlOf(app);
  });

  afterAll(async () => {
    await app.close();
  });

  const send = (path: string, init: RequestInit = {}) => fetch(`${base}${path}`, init);
  const postJson = (path: string, body: string) =>
    send(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  describe('error envelope', () => {
    it.each(ERROR_CODES.filter((code) => code !== 'internal_error'))(
      'answers a DomainError %s with its contract status',
      async (code) => {
        const response = await send(`/test/fail/${code}`, { method: 'POST' });
        expect(response.status).toBe(statusFor(code));
        expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
        const error = await errorOf(response);
        expect(error.code).toBe(code);
        expect(error.message).toBe(`failed with ${code}`);
      },
    );

    it('carries details and sets Retry-After on rate_limited', async () => {
      const response = await send('/test/fail/rate_limited', { method: 'POST' });
      expect(response.headers.get('retry-after')).toBe('7');
      expect(await response.json()).toEqual({
        error: {
          code: 'rate_limited',
          message: 'failed with rate_limited',
          details: { retry_after: 7 },
        },
      });
      const policy = await send('/test/fail/policy_violation', { method: 'POST' });
      expect((await errorOf(policy)).details).toEqual({ rule: 'max_payout_amount' });
    });

    it('answers an unknown route with not_found', async () => {
      for (const [method, path] of [
        ['GET', '/v1/nope'],
        ['DELETE', '/test/things'],
      ]) {
        const response = await send(path, { method });
        expect(response.status).toBe(404);
        expect(await response.json()).toEqual({
          error: { code: 'not_found', message: 'No such resource or route.' },
        });
      }
    });

    it('answers malformed JSON with a clear validation_error', async () => {
      const response = await postJson('/test/validate', '{"amount": 1,');
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: { code: 'validation_error', message: 'The request body is not valid JSON.' },
      });
    });

    it('refuses prototype keys in JSON', async () => {
      const response = await postJson(
        '/test/validate',
        '{"amount": 1, "__proto__": {"admin": true}}',
      );
      expect(response.status).toBe(400);
      expect((await errorOf(response)).message).toContain('forbidden key');
    });

    it('answers a 2 MiB body with 413 payload_too_large', async () => {
      const response = await postJson(
        '/test/validate',
        JSON.stringify({ note: 'x'.repeat(2 * 1024 * 1024) }),
      );
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({
        error: {
          code: 'payload_too_large',
          message: 'The request body is larger than the 1 MiB limit.',
        },
      });
    });

    it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml'])(
      'answers a %s body with 415 unsupported_media_type',
      async (type) => {
        const response = await send('/test/validate', {
          method: 'POST',
          headers: { 'content-type': type },
          body: 'amount=1',
        });
        expect(response.status).toBe(415);
        expect((await errorOf(response)).code).toBe('unsupported_media_type');
      },
    );

    it('takes a body without Content-Type as not JSON, and an empty one as no body', async () => {
      const raw = await send('/test/validate', {
        method: 'POST',
        body: new Uint8Array(Buffer.from('{"amount":1}')),
      });
      expect(raw.status).toBe(415);
      const empty = await send('/test/fail/not_found', { method: 'POST' });
      expect(empty.status).toBe(404);
      const emptyJson = await send('/test/fail/not_found', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '',
      });
      expect(emptyJson.status).toBe(404);
    });

    it('accepts JSON with a charset', async () => {
      const response = await send('/test/validate', {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: '{"amount": 5}',
      });
      expect(response.status).toBe(201);
      expect(await response.json()).toEqual({ amount: 5 });
    });

    it('hides a thrown Error behind a generic 500', async () => {
      for (const method of ['POST', 'GET']) {
        const response = await send('/test/boom', { method });
        expect(response.status).toBe(500);
        const text = await response.text();
        expect(JSON.parse(text)).toEqual({
          error: {
            code: 'internal_error',
            message: 'An unexpected error occurred. Please try again later.',
          },
        });
        for (const leak of ['SELECT', 'internal_secrets', 'ledgerRepository', 'Error', ' at ']) {
          expect(text).not.toContain(leak);
        }
      }
    });

    it('answers a database out of reach with 503 unavailable and Retry-After, not a 500, and logs it in one line', async () => {
      const warned = jest.spyOn(Logger.prototype, 'warn');
      const failed = jest.spyOn(Logger.prototype, 'error');
      try {
        const response = await send('/test/unreachable-database');

        expect(response.status).toBe(503);
        expect(response.headers.get('retry-after')).toBe('1');
        expect(await response.json()).toEqual({
          error: {
            code: 'unavailable',
            message: 'The service cannot reach its database right now. Retry shortly.',
            details: { retry_after: 1 },
          },
        });
        const id = response.headers.get('request-id')!;
        expect(warned).toHaveBeenCalledTimes(1);
        expect(warned.mock.calls[0]![0]).toMatch(
          new RegExp(
            `^Database out of reach on GET /test/unreachable-database \\(${id}\\): connect ECONNREFUSED 127\\.0\\.0\\.1:\\d+$`,
          ),
        );
        expect(failed).not.toHaveBeenCalled();
      } finally {
        warned.mockRestore();
        failed.mockRestore();
      }
    });

    it('sends no X-Powered-By', async () => {
      const response = await send('/health');
      expect(response.headers.get('x-powered-by')).toBeNull();
    });
  });

  describe('validation', () => {
    it('lists each invalid field by JSON path', async () => {
      const response = await postJson(
        '/test/validate',
        JSON.stringify({
          amount: '100',
          customer: { phone: '771234567' },
          items: [{ quantity: 1 }, { quantity: 0 }],
          metadata: { order: 42 },
          webhook_url: 'http://example.com',
          extra: true,
        }),
      );
      expect(response.status).toBe(400);
      const error = await errorOf(response);
      expect(error.code).toBe('validation_error');
      expect(error.details).toEqual([
        { field: 'extra', issue: 'is not an allowed field' },
        { field: 'amount', issue: 'must be an integer' },
        {
          field: 'customer.phone',
          issue: 'must be a Senegalese mobile number: +2217 followed by 8 digits',
        },
        { field: 'items[1].quantity', issue: 'must be at least 1' },
        { field: 'metadata', issue: 'value of "order" must be a string' },
        { field: 'webhook_url', issue: 'must be an https:// URL of at most 2048 characters' },
      ]);
    });

    it('converts list query strings and bounds limit', async () => {
      const page = await send('/test/list?limit=2&starting_after=obj_29');
      expect(await page.json()).toEqual({
        object: 'list',
        data: [{ id: 'obj_28' }, { id: 'obj_27' }],
        has_more: true,
      });
      const defaults = await jsonOf<{ data: unknown[]; has_more: boolean }>(
        await send('/test/list'),
      );
      expect(defaults.data).toHaveLength(20);
      expect(defaults.has_more).toBe(true);
      const last = await jsonOf<unknown>(await send('/test/list?starting_after=obj_02'));
      expect(last).toEqual({ object: 'list', data: [{ id: 'obj_01' }], has_more: false });
      const tooMany = await send('/test/list?limit=101');
      expect(tooMany.status).toBe(400);
      expect((await errorOf(tooMany)).details).toEqual([
        { field: 'limit', issue: 'must be at most 100' },
      ]);
    });

    it('answers an unknown starting_after with 404', async () => {
      const response = await send('/test/list?starting_after=obj_99');
      expect(response.status).toBe(404);
      expect(await errorOf(response)).toEqual({
        code: 'not_found',
        message: 'No such object: obj_99 (starting_after).',
        details: { param: 'starting_after' },
      });
    });
  });

  describe('what the framework refuses (CONTRACT 2)', () => {
    const notFound = { error: { code: 'not_found', message: 'No such resource or route.' } };
    const nested = (levels: number, inner = '1') =>
      '{"a":'.repeat(levels) + inner + '}'.repeat(levels);

    it('refuses JSON nested deeper than 32 levels, however deep, naming where', async () => {
      const deep = await postJson('/test/validate', `{"amount":1,"extra":${nested(32)}}`);
      expect(deep.status).toBe(400);
      expect(await deep.json()).toEqual({
        error: {
          code: 'validation_error',
          message: 'The request body is nested deeper than 32 levels of objects and arrays.',
          details: [{ field: `extra${'.a'.repeat(31)}`, issue: 'is nested deeper than 32 levels' }],
        },
      });
      // 32 levels pass the parser: what refuses this body is the DTO.
      const shallower = await postJson('/test/validate', `{"amount":1,"extra":${nested(31)}}`);
      expect((await errorOf(shallower)).details).toEqual([
        { field: 'extra', issue: 'is not an allowed field' },
      ]);
      for (const body of [
        `{"amount":1,"metadata":${nested(5_000)}}`,
        `{"amount":${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
        nested(100_000),
      ]) {
        const response = await postJson('/test/validate', body);
        expect(response.status).toBe(400);
        expect((await errorOf(response)).message).toContain('deeper than 32 levels');
      }
    });

    it('refuses strings holding NUL or an unpaired surrogate, naming each field', async () => {
      const response = await postJson(
        '/test/validate',
        JSON.stringify({
          amount: 1,
          customer: { phone: '+221770000001', name: 'a\u0000b' },
          items: [{ quantity: 1 }, { quantity: 2, note: '\u0000' }],
          metadata: { 'k\u0000': 'v', ok: '\ud800x' },
          webhook_url: '\udc00',
        }),
      );
      expect(response.status).toBe(400);
      expect((await errorOf(response)).details).toEqual([
        { field: 'webhook_url', issue: 'must not contain an unpaired UTF-16 surrogate' },
        { field: 'customer.name', issue: 'must not contain the NUL character (U+0000)' },
        { field: 'metadata.k\u0000', issue: 'name must not contain the NUL character (U+0000)' },
        { field: 'metadata.ok', issue: 'must not contain an unpaired UTF-16 surrogate' },
        { field: 'items[1].note', issue: 'must not contain the NUL character (U+0000)' },
      ]);
      const fine = await postJson(
        '/test/validate',
        String.raw`{"amount":2,"customer":{"phone":"+221770000001","name":"Awa \ud83d\ude00 \\u0000"}}`,
      );
      expect(fine.status).toBe(201);
      expect((await jsonOf<{ customer: { name: string } }>(fine)).customer.name).toBe(
        'Awa \u{1F600} \\u0000',
      );
    });

    it('answers 404 for a path segment over 255 characters, not UTF-8 or holding NUL', async () => {
      const idOf = async (segment: string) => {
        const response = await send(`/test/things/${segment}`);
        return { status: response.status, body: await response.json() };
      };
      expect(await idOf('a'.repeat(255))).toEqual({ status: 200, body: { id_length: 255 } });
      expect(await idOf('%C3%A9')).toEqual({ status: 200, body: { id_length: 1 } });
      for (const segment of [
        'a'.repeat(256),
        'a'.repeat(10_000),
        '%zz',
        '%ff',
        '%ed%a0%80',
        '%00',
        'a%00b',
      ]) {
        expect(await idOf(segment)).toEqual({ status: 404, body: notFound });
      }
      expect(await (await send('/%ff')).json()).toEqual(notFound);
    });

    it('refuses a query value holding NUL, not UTF-8 or over 255 characters, by name', async () => {
      const response = await send(
        `/test/list?limit=%00&starting_after=%ff&%ff=1&x=${'a'.repeat(256)}`,
      );
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: {
          code: 'validation_error',
          message: 'Invalid query string: starting_after, %ff, limit, x.',
          details: [
            { field: 'starting_after', issue: 'is not percent-encoded UTF-8' },
            { field: '%ff', issue: 'is not percent-encoded UTF-8' },
            { field: 'limit', issue: 'must not contain the NUL character (U+0000)' },
            { field: 'x', issue: 'must be at most 255 characters' },
          ],
        },
      });
      const longest = await send(`/test/list?starting_after=${'a'.repeat(255)}`);
      expect(longest.status).toBe(404);
      expect((await errorOf(longest)).details).toEqual({ param: 'starting_after' });
    });

    it("answers what Node's HTTP parser refuses with the envelope", async () => {
      for (const request of [
        'FOO /health HTTP/1.1\r\nHost: x\r\n\r\n',
        'POST /test/validate HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n{}',
        'POST /test/validate HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
        'GET /test/things/\xff HTTP/1.1\r\nHost: x\r\n\r\n',
      ]) {
        const { statusLine, body } = await sendRawHttp(base, request);
        expect({ statusLine, body: JSON.parse(body) }).toEqual({
          statusLine: 'HTTP/1.1 400 Bad Request',
          body: {
            error: {
              code: 'validation_error',
              message: 'The request is not well-formed HTTP/1.1.',
            },
          },
        });
      }
      const overflow = await send('/health', { headers: { 'x-big': 'a'.repeat(20_000) } });
      expect(overflow.status).toBe(400);
      expect(overflow.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await overflow.json()).toEqual({
        error: {
          code: 'validation_error',
          message: 'The request line and headers are larger than the 16 KiB limit.',
        },
      });
    });
  });

  describe('rate limits', () => {
    it('limits public routes per client IP, with Retry-After', async () => {
      const from = (ip: string) => send('/test/public', { headers: { 'x-forwarded-for': ip } });
      expect((await from('203.0.113.1')).status).toBe(200);
      expect((await from('203.0.113.1')).status).toBe(200);
      const limited = await from('203.0.113.1');
      expect(limited.status).toBe(429);
      // A burst of 2 at 1 per second is a window of 2 s (its end: rate-limiter.spec.ts).
      expect(limited.headers.get('retry-after')).toBe('2');
      expect((await errorOf(limited)).code).toBe('rate_limited');
      expect((await from('203.0.113.2')).status).toBe(200);
    });

    it('limits authenticated routes per credential', async () => {
      const asKey = (keyId: string, ip: string) =>
        send('/test/keyed', { headers: { 'x-test-key': keyId, 'x-forwarded-for': ip } });
      expect((await asKey('key_a', '198.51.100.1')).status).toBe(200);
      const limited = await asKey('key_a', '198.51.100.2');
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await asKey('key_b', '198.51.100.1')).status).toBe(200);
    });
  });

  describe('request ids', () => {
    const REQUEST_ID = /^req_[0-9A-Z]{26}$/;

    it('names every response, answered or refused, with an id of its own', async () => {
      const responses = [
        await send('/health'),
        await send('/test/fail/not_found', { method: 'POST' }),
        await send('/v1/unknown/route'),
        // Refused by the router before any hook runs, and by the URL rules in the first hook.
        await send(`/test/things/${'a'.repeat(256)}`),
        await send('/test/things?limit=%00'),
        await postJson('/test/things', '{"amount":'),
      ];
      const ids = responses.map((response) => response.headers.get('request-id'));

      expect(responses.map((response) => response.status)).toEqual([200, 404, 404, 404, 400, 400]);
      for (const id of ids) expect(id).toMatch(REQUEST_ID);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('never takes the id a client sends', async () => {
      const response = await send('/health', { headers: { 'request-id': 'req_chosen' } });

      expect(response.headers.get('request-id')).toMatch(REQUEST_ID);
      expect(response.headers.get('request-id')).not.toBe('req_chosen');
    });

    it('is in the log line of a failure of ours, so a client can quote it', async () => {
      const logged = jest.spyOn(Logger.prototype, 'error');
      try {
        const response = await send('/test/boom');

        expect(response.status).toBe(500);
        const id = response.headers.get('request-id');
        expect(id).toMatch(REQUEST_ID);
        expect(logged).toHaveBeenCalledWith(
          `Unexpected error on GET /test/boom (${id})`,
          expect.any(String),
        );
      } finally {
        logged.mockRestore();
      }
    });

    it('is documented on every response', async () => {
      const document = await jsonOf<OpenApiDocument>(await send('/docs/openapi.json'));

      expect(document.components.headers.RequestId).toMatchObject({
        schema: { type: 'string', pattern: REQUEST_ID.source },
      });
      const responses = Object.values(document.paths).flatMap((methods) =>
        Object.values(methods).flatMap((operation) => Object.values(operation.responses)),
      );
      expect(responses.length).toBeGreaterThan(20);
      for (const response of responses) {
        expect(response.headers).toMatchObject({
          'Request-Id': { $ref: '#/components/headers/RequestId' },
        });
      }
    });
  });

  describe('health, metrics and docs', () => {
    it('reports health', async () => {
      const response = await send('/health');
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('{"status":"ok"}');
    });

    it('exposes Prometheus metrics by route pattern', async () => {
      await send('/test/fail/not_found', { method: 'POST' });
      await send('/v1/unknown/route');
      const response = await send('/metrics');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/plain');
      const text = await response.text();
      expect(text).toMatch(
        /^http_requests_total\{method="POST",route="\/test\/fail\/:code",status="404"\} \d+$/m,
      );
      expect(text).toMatch(
        /^http_requests_total\{method="GET",route="unmatched",status="404"\} \d+$/m,
      );
      expect(text).toMatch(
        /^http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/health",status="200"\} [1-9]\d*$/m,
      );
      expect(text).toContain('process_cpu_user_seconds_total');
      expect(text).not.toContain('/v1/unknown/route');
    });

    it('serves the OpenAPI document generated from the DTOs', async () => {
      const response = await send('/docs/openapi.json');
      expect(response.status).toBe(200);
      const document = await jsonOf<OpenApiDocument>(response);
      expect(document.components.schemas.CreateTestThingDto).toMatchObject({
        type: 'object',
        required: ['amount'],
        properties: {
          amount: { type: 'number', minimum: 1, maximum: 100_000_000 },
          customer: { $ref: '#/components/schemas/TestCustomerDto' },
        },
      });
      expect(
        document.paths['/test/things'].post.requestBody.content['application/json'].schema,
      ).toEqual({
        $ref: '#/components/schemas/CreateTestThingDto',
      });
      expect(document.components.securitySchemes).toEqual({
        api_key: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
        session: expect.objectContaining({
          type: 'apiKey',
          in: 'cookie',
          name: 'better-auth.session_token',
        }),
        client_secret: expect.objectContaining({ type: 'apiKey', in: 'query', name: 'cs' }),
      });
      // CONTRACT 10's routes are the service's too: documented, public.
      expect(document.paths['/health'].get.security).toEqual([]);
      expect(document.paths['/metrics'].get.responses['200'].content).toEqual({
        'text/plain': { schema: { type: 'string' } },
      });
    });
  });
});

describe('readiness', () => {
  it('answers 503 until the service is marked ready', async () => {
    const app = await createTestApp({ edge: { readyOnBootstrap: false } });
    try {
      const before = await fetch(`${baseUrlOf(app)}/health`);
      expect(before.status).toBe(503);
      expect(await before.json()).toEqual({
        error: { code: 'unavailable', message: 'The service is not ready yet.' },
      });
      app.get(Readiness).markReady();
      expect((await fetch(`${baseUrlOf(app)}/health`)).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});

/**
 * Swagger UI needs @fastify/static, whose ESM dependencies (content-disposition) the repository's
 * jest transform does not cover yet; the UI is tested wherever it can be loaded.
 */
const canLoadStatic = (() => {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- decides describe or skip while jest collects
    require('@fastify/static');
    return true;
  } catch {
    return false;
  }
})();

(canLoadStatic ? describe : describe.skip)('Swagger UI', () => {
  it('is served at /docs', async () => {
    const app = await createTestApp({ docsUi: true });
    try {
      const response = await fetch(`${baseUrlOf(app)}/docs`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('Swagger UI');
    } finally {
      await app.close();
    }
  });
});
