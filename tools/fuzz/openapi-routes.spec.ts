import { routesOf } from './openapi-routes';

/** A document shaped like @nestjs/swagger's, with the indirections the reader must follow. */
const document = {
  openapi: '3.0.0',
  paths: {
    '/v1/payments': {
      post: {
        security: [{ bearer: [] }],
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: { $ref: '#/components/schemas/CreatePaymentDto' } },
          },
        },
      },
      get: {
        security: [{ bearer: [] }],
        parameters: [
          {
            name: 'limit',
            in: 'query',
            required: false,
            schema: { type: 'number', minimum: 1, maximum: 100 },
          },
          { $ref: '#/components/parameters/StartingAfter' },
        ],
      },
    },
    '/dashboard/v1/merchants/{merchantId}/{mode}/api-keys/{id}': {
      parameters: [{ name: 'merchantId', in: 'path', required: true, schema: {} }],
      delete: {
        security: [{ session: [] }],
        // `id` is not declared: the reader still fills it.
        parameters: [
          {
            name: 'mode',
            in: 'path',
            required: true,
            schema: { type: 'string', enum: ['test', 'live'] },
          },
        ],
      },
    },
    '/providers/wave/webhook': {
      post: { requestBody: { $ref: '#/components/requestBodies/Anything' } },
    },
    '/v1/trees': {
      post: {
        requestBody: {
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Tree' } } },
        },
      },
    },
    '/health': { get: {}, summary: 'not an operation' },
  },
  components: {
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer' },
      session: { type: 'apiKey', in: 'cookie', name: 'better-auth.session_token' },
    },
    parameters: {
      StartingAfter: { name: 'starting_after', in: 'query', schema: { type: 'string' } },
    },
    requestBodies: {
      Anything: { content: { 'text/plain': {} } },
    },
    schemas: {
      CreatePaymentDto: {
        type: 'object',
        properties: {
          amount: { type: 'number', minimum: 1 },
          customer: { $ref: '#/components/schemas/Customer' },
        },
        required: ['amount'],
      },
      Customer: {
        type: 'object',
        properties: { phone: { type: 'string', pattern: '^\\+2217[0-9]{8}$' } },
      },
      Tree: { type: 'object', properties: { child: { $ref: '#/components/schemas/Tree' } } },
    },
  },
};

describe('routesOf: the OpenAPI document as routes to fuzz', () => {
  const routes = routesOf(document);
  const route = (method: string, template: string) =>
    routes.find((candidate) => candidate.method === method && candidate.template === template);

  it('lists every operation of every path, and nothing else', () => {
    expect(routes.map((r) => `${r.method} ${r.template}`).sort()).toEqual([
      'DELETE /dashboard/v1/merchants/{merchantId}/{mode}/api-keys/{id}',
      'GET /health',
      'GET /v1/payments',
      'POST /providers/wave/webhook',
      'POST /v1/payments',
      'POST /v1/trees',
    ]);
  });

  it('resolves the body schema through $refs, nested ones too', () => {
    expect(route('POST', '/v1/payments')).toMatchObject({
      bodyRequired: true,
      auth: ['bearer'],
      body: {
        type: 'object',
        required: ['amount'],
        properties: {
          amount: { type: 'number', minimum: 1 },
          customer: {
            type: 'object',
            properties: { phone: { type: 'string', pattern: '^\\+2217[0-9]{8}$' } },
          },
        },
      },
    });
  });

  it('reads query parameters, referenced ones included', () => {
    expect(route('GET', '/v1/payments')!.query).toEqual([
      { name: 'limit', required: false, schema: { type: 'number', minimum: 1, maximum: 100 } },
      { name: 'starting_after', required: false, schema: { type: 'string' } },
    ]);
    expect(route('GET', '/v1/payments')!.body).toBeUndefined();
  });

  it('orders path parameters as the template does: path-level, operation-level and undeclared ones', () => {
    const remove = route('DELETE', '/dashboard/v1/merchants/{merchantId}/{mode}/api-keys/{id}')!;
    expect(remove.pathParams).toEqual([
      { name: 'merchantId', required: true, schema: {} },
      { name: 'mode', required: true, schema: { type: 'string', enum: ['test', 'live'] } },
      { name: 'id', required: true, schema: {} },
    ]);
    expect(remove.auth).toEqual(['session']);
  });

  it('gives a body with no JSON schema the empty schema (generic JSON), and a public route no auth', () => {
    expect(route('POST', '/providers/wave/webhook')).toMatchObject({
      body: {},
      bodyRequired: false,
      auth: [],
    });
    expect(route('GET', '/health')).toMatchObject({ auth: [], pathParams: [], query: [] });
  });

  it('stops following a recursive schema instead of looping', () => {
    let depth = 0;
    let node = route('POST', '/v1/trees')!.body;
    while (node?.properties?.child) {
      node = node.properties.child;
      depth += 1;
    }
    expect(depth).toBeGreaterThan(2);
    expect(depth).toBeLessThan(20);
  });

  it('refuses what is not an OpenAPI document', () => {
    expect(() => routesOf({ openapi: '3.0.0' })).toThrow('no `paths` object');
    expect(() => routesOf('nope')).toThrow('no `paths` object');
  });
});
