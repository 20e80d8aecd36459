import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describeWithPostgres } from '@xaalis/testing';
import { type Gateway, startGateway } from './testing/gateway-harness';

const REDOCLY = resolve(__dirname, '../../../node_modules/.bin/redocly');

interface Operation {
  summary?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: object }>;
  requestBody?: { content?: Record<string, { schema: { $ref: string } }> };
  responses?: Record<string, { content?: Record<string, { schema: ErrorSchema }> }>;
}

type ErrorSchema = { $ref: string } | { anyOf: Array<{ $ref: string }> };
type Envelope = { properties: { error: { properties: { code: { enum: string[] } } } } };

/**
 * Issue 17: the OpenAPI document the gateway serves passes `@redocly/cli lint` (its recommended
 * rules) with no error, and says for each operation what it does and what credentials it takes.
 */
describeWithPostgres('the OpenAPI document', () => {
  let gw: Gateway;
  let document: {
    servers: Array<{ url: string }>;
    paths: Record<string, Record<string, Operation>>;
    components: {
      securitySchemes: Record<string, Record<string, string>>;
      schemas: Record<string, { properties: Record<string, { type?: string }> } & Envelope>;
    };
  };
  const operations = () =>
    Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        route: `${method.toUpperCase()} ${path}`,
        operation,
      })),
    );

  beforeAll(async () => {
    gw = await startGateway({ PUBLIC_BASE_URL: 'https://pay.example.sn' });
    document = (await (await fetch(`${gw.url}/docs/openapi.json`)).json()) as typeof document;
  });

  afterAll(async () => {
    await gw?.close();
  });

  it('passes redocly lint with no error nor warning', () => {
    const dir = mkdtempSync(join(tmpdir(), 'xaalis-openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(document));
      const lint = spawnSync(REDOCLY, ['lint', file, '--format=json'], { encoding: 'utf8' });
      const report = JSON.parse(lint.stdout) as {
        totals: { errors: number };
        problems: Array<{ ruleId: string; severity: string; message: string; location: unknown }>;
      };
      const errors = report.problems.filter((problem) => problem.severity === 'error');
      expect(errors.map(({ ruleId, message }) => `${ruleId}: ${message}`)).toEqual([]);
      expect(report.totals.errors).toBe(0);
      // Nor a warning but the license (the service has none to name).
      const warnings = new Set(report.problems.map((problem) => problem.ruleId));
      expect([...warnings].filter((rule) => rule !== 'info-license')).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('describes the body of every success but a 204 (a generated client types no body as never)', () => {
    for (const { route, operation } of operations()) {
      const successes = Object.entries(operation.responses ?? {}).filter(([status]) =>
        status.startsWith('2'),
      );
      expect({ route, successes: successes.length > 0 }).toEqual({ route, successes: true });
      for (const [status, response] of successes) {
        const typed = Object.values(response.content ?? {}).every((media) => media.schema);
        const described =
          status === '204' ? response.content === undefined : typed && !!response.content;
        expect({ route, status, described }).toEqual({ route, status, described: true });
      }
    }
  });

  it('has no default in a request body: a generated client would make the field required', () => {
    const bodies = operations().flatMap(({ operation }) =>
      Object.values(operation.requestBody?.content ?? {}).map(({ schema }) =>
        schema.$ref.split('/').pop()!,
      ),
    );
    expect(bodies).toContain('CreatePaymentDto');
    const withDefault = bodies.flatMap((name) =>
      Object.entries(document.components.schemas[name]!.properties)
        .filter(([, property]) => 'default' in property)
        .map(([field]) => `${name}.${field}`),
    );
    expect(withDefault).toEqual([]);
  });

  it('names its server from PUBLIC_BASE_URL', () => {
    expect(document.servers).toEqual([{ url: 'https://pay.example.sn' }]);
  });

  it('gives every operation a summary, a tag and its credentials (none for public routes)', () => {
    for (const { route, operation } of operations()) {
      expect({ route, summary: typeof operation.summary, tags: operation.tags?.length }).toEqual({
        route,
        summary: 'string',
        tags: 1,
      });
      expect({ route, security: Array.isArray(operation.security) }).toEqual({
        route,
        security: true,
      });
    }
    const securityOf = (route: string) =>
      operations().find((candidate) => candidate.route === route)?.operation.security;
    expect(securityOf('POST /v1/payments')).toEqual([{ api_key: [] }]);
    expect(securityOf('POST /dashboard/v1/merchants')).toEqual([{ session: [] }]);
    expect(securityOf('POST /dashboard/v1/auth/sign-in')).toEqual([]);
    expect(securityOf('GET /v1/public/payments/{id}')).toEqual([{ client_secret: [] }]);
    expect(securityOf('POST /providers/wave/webhook')).toEqual([]);
  });

  it('describes the credentials as what they are: opaque keys, the session cookie, the client secret', () => {
    expect(document.components.securitySchemes).toEqual({
      api_key: expect.objectContaining({
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'opaque key',
      }),
      session: expect.objectContaining({
        type: 'apiKey',
        in: 'cookie',
        name: 'better-auth.session_token',
      }),
      client_secret: expect.objectContaining({ type: 'apiKey', in: 'query', name: 'cs' }),
    });
  });

  it('declares the idempotency-key header where it is taken: required, or optional and honoured', () => {
    const keyOf = (route: string) =>
      operations()
        .find((candidate) => candidate.route === route)
        ?.operation.parameters?.find((parameter) => parameter.name === 'idempotency-key');
    expect(keyOf('POST /v1/refunds')).toEqual(
      expect.objectContaining({
        in: 'header',
        required: true,
        schema: expect.objectContaining({ type: 'string', minLength: 1, maxLength: 255 }),
      }),
    );
    expect(keyOf('POST /v1/payments')).toEqual(
      expect.objectContaining({ in: 'header', required: false }),
    );
    expect(keyOf('POST /dashboard/v1/merchants/{merchantId}/{mode}/api-keys')).toEqual(
      expect.objectContaining({ in: 'header', required: true }),
    );
    expect(keyOf('GET /v1/payments')).toBeUndefined();
    // Every other write takes one too, optional: all but the session's own routes, the first
    // merchant (no merchant scopes its key yet), the customer's pay, the providers' calls and the
    // public quote (no caller scopes its key: a replay would hand a quote's token to whoever
    // guessed the key and the terms).
    const without = operations()
      .filter(({ route }) => !route.startsWith('GET '))
      .filter(({ route }) => keyOf(route) === undefined)
      .map(({ route }) => route);
    expect(without.sort()).toEqual(
      [
        'POST /dashboard/v1/auth/sign-in',
        'POST /dashboard/v1/auth/sign-out',
        'POST /dashboard/v1/auth/sign-up',
        'POST /dashboard/v1/merchants',
        'POST /providers/orange-money/callback',
        'POST /providers/wave/webhook',
        'POST /v1/public/exchange-quotes',
        'POST /v1/public/payments/{id}/pay',
      ].sort(),
    );
  });

  it('types amounts and counts as integers, as the validators do', () => {
    const { schemas } = document.components;
    expect(schemas.CreatePaymentDto!.properties.amount!.type).toBe('integer');
    expect(schemas.CreateRefundDto!.properties.amount!.type).toBe('integer');
    const limit = operations()
      .find((candidate) => candidate.route === 'GET /v1/payments')
      ?.operation.parameters?.find((parameter) => parameter.name === 'limit');
    expect(limit?.schema).toEqual(expect.objectContaining({ type: 'integer', maximum: 100 }));
  });

  it('lists the error responses each route can answer, the envelope with its codes per status', () => {
    const codesOf = (route: string) => {
      const { responses = {} } = operations().find((c) => c.route === route)!.operation;
      return Object.fromEntries(
        Object.entries(responses)
          .filter(([status]) => Number(status) >= 400)
          .map(([status, response]) => {
            const schema = response.content!['application/json']!.schema;
            const refs = 'anyOf' in schema ? schema.anyOf : [schema];
            const codes = refs.map(({ $ref }) => {
              const envelope = document.components.schemas[$ref.split('/').pop()!]!;
              return envelope.properties.error.properties.code.enum;
            });
            return [status, codes.flat()];
          }),
      );
    };
    expect(codesOf('POST /v1/refunds')).toEqual({
      400: ['validation_error'],
      401: ['authentication_required'],
      402: ['insufficient_funds'],
      403: ['forbidden'],
      404: ['not_found'],
      409: ['idempotency_conflict', 'invalid_state'],
      413: ['payload_too_large'],
      415: ['unsupported_media_type'],
      429: ['rate_limited'],
      503: ['unavailable'],
    });
    expect(codesOf('GET /v1/payments')).toEqual({
      400: ['validation_error'],
      401: ['authentication_required'],
      403: ['forbidden'],
      404: ['not_found'],
      429: ['rate_limited'],
      503: ['unavailable'],
    });
    expect(Object.keys(codesOf('POST /dashboard/v1/auth/sign-in'))).toEqual([
      '400',
      '401',
      '413',
      '415',
      '429',
      '503',
    ]);
    for (const { route, operation } of operations()) {
      expect({
        route,
        has4xx: Object.keys(operation.responses ?? {}).some((s) => s.startsWith('4')),
      }).toEqual({
        route,
        has4xx: true,
      });
    }
  });
});
