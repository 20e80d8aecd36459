import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runFuzz } from './fuzz-runner';
import type { FuzzWorld } from './fuzz-world';
import type { FuzzRoute } from './openapi-routes';

/**
 * The runner against a small server with two planted bugs: a 500 for an amount over 1,000, and a
 * framework-style 415 for a body of another media type. The runner must find both (among what
 * plain node:http gets wrong by itself), shrink the first to its threshold, report seeds and paths
 * that replay them, and keep counting after each.
 */
describe('runFuzz against a server with planted bugs', () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const send = (status: number, body: unknown) => {
          response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
          response.end(JSON.stringify(body));
        };
        const type = request.headers['content-type'];
        if (type !== undefined && type !== 'application/json') {
          return send(415, { statusCode: 415, error: 'Unsupported Media Type' });
        }
        if (request.method !== 'POST' || request.url !== '/v1/things') {
          return send(404, { error: { code: 'not_found', message: 'No such route.' } });
        }
        let body: { amount?: unknown } | undefined;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          return send(400, { error: { code: 'validation_error', message: 'Not JSON.' } });
        }
        if (typeof body?.amount === 'number' && body.amount > 1_000) {
          return send(500, { error: { code: 'internal_error', message: 'Unexpected.' } });
        }
        return send(201, { object: 'thing' });
      });
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((closed) => server.close(() => closed())));

  const routes: FuzzRoute[] = [
    {
      method: 'POST',
      template: '/v1/things',
      pathParams: [],
      query: [],
      headers: [],
      body: {
        type: 'object',
        properties: { amount: { type: 'number', minimum: 1, maximum: 100_000 } },
        required: ['amount'],
      },
      bodyRequired: true,
      auth: [],
    },
  ];
  const world: FuzzWorld = {
    pools: {},
    available: ['none'],
    urlHost: 'hooks.e2e.test',
    notes: [],
    sessionCookieName: 'session',
    valueOf: () => undefined,
    renew: async () => [],
  };

  it('finds both bugs, shrinks the 500 to its threshold, and keeps counting', async () => {
    const { stats, failures } = await runFuzz(url, routes, world, {
      runs: 600,
      seed: 20261125,
      shrinkMs: 10_000,
    });

    expect(stats.cases).toBe(600);
    expect(stats.serverErrors).toBeGreaterThan(1);
    expect(stats.bySignature['server_error 500 POST /v1/things']).toBe(stats.serverErrors);
    expect(failures.map((failure) => failure.signature)).toEqual(
      expect.arrayContaining([
        'not_envelope 415 {error,statusCode}',
        'server_error 500 POST /v1/things',
      ]),
    );
    expect(new Set(failures.map((failure) => failure.signature)).size).toBe(failures.length);
    const serverError = failures.find((failure) => failure.signature.startsWith('server_error'))!;
    expect(serverError.counterexample.body).toEqual({ kind: 'json', value: { amount: 1_001 } });
    expect(serverError.response).toMatch(/^500 application\/json/);
    expect(serverError.path).toMatch(/^\d+(:\d+)*$/);

    // The seed and path replay the same failure, shrunk to the same case.
    const replay = await runFuzz(url, routes, world, {
      runs: 1,
      seed: serverError.seed,
      path: serverError.path,
      shrinkMs: 10_000,
    });
    expect(
      replay.failures.map((failure) => [failure.signature, failure.counterexample.body]),
    ).toEqual([[serverError.signature, serverError.counterexample.body]]);
  });
});
