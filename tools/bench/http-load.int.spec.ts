import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeHttpLoad, httpLoad } from './http-load';
import { measure } from './measure';

/** A loopback server that records what it was sent and answers with `answer`. */
async function recordingServer(
  answer: (request: IncomingMessage, body: string) => { status: number; body: string },
): Promise<{
  url: string;
  seen: Array<{ request: IncomingMessage; body: string }>;
  server: Server;
}> {
  const seen: Array<{ request: IncomingMessage; body: string }> = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      seen.push({ request, body });
      const { status, body: out } = answer(request, body);
      response.writeHead(status, { 'content-type': 'application/json' }).end(out);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/things`, seen, server };
}

describe('httpLoad (the load thread)', () => {
  const servers: Server[] = [];
  afterEach(() => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      server.close();
    }
  });
  afterAll(() => closeHttpLoad());

  it('sends the request from its thread, one latency per answer, every answer checked', async () => {
    const target = await recordingServer(() => ({ status: 201, body: '{"status":"open"}' }));
    servers.push(target.server);
    const subject = httpLoad(
      'create',
      {
        method: 'POST',
        url: target.url,
        headers: { authorization: 'Bearer k' },
        body: '{"amount":100}',
        freshIdempotencyKey: true,
        expectFields: { status: 'open' },
      },
      { durationMs: 1_000, warmupMs: 0, concurrency: 4 },
    );

    const result = await measure(subject);

    expect(result.operations).toBeGreaterThan(10);
    expect(result.operations).toBe(target.seen.length);
    expect(result.rate).toBeCloseTo(result.operations / result.seconds, 6);
    const first = target.seen[0];
    expect(first.request.method).toBe('POST');
    expect(first.request.headers.authorization).toBe('Bearer k');
    expect(first.request.headers['content-type']).toBe('application/json');
    expect(first.body).toBe('{"amount":100}');
    const keys = new Set(target.seen.map(({ request }) => request.headers['idempotency-key']));
    expect(keys.size).toBe(target.seen.length);
  });

  it('sends to each of its urls in turn', async () => {
    const target = await recordingServer(() => ({ status: 200, body: '{"object":"payment"}' }));
    servers.push(target.server);
    const urls = ['a', 'b', 'c'].map((id) => `${target.url}/${id}`);

    await measure(
      httpLoad(
        'read',
        { method: 'GET', url: urls[0]!, urls, expectFields: { object: 'payment' } },
        { durationMs: 100, warmupMs: 0, concurrency: 1 },
      ),
    );

    const paths = target.seen.map(({ request }) => request.url);
    expect(paths.length).toBeGreaterThan(6);
    expect(paths.slice(0, 6)).toEqual(['a', 'b', 'c', 'a', 'b', 'c'].map((id) => `/things/${id}`));
  });

  it('sends no idempotency key unless asked', async () => {
    const target = await recordingServer(() => ({ status: 200, body: '{}' }));
    servers.push(target.server);

    await measure(
      httpLoad('read', { method: 'GET', url: target.url }, { durationMs: 50, warmupMs: 0 }),
    );

    expect(target.seen.length).toBeGreaterThan(0);
    expect(
      target.seen.every(({ request }) => request.headers['idempotency-key'] === undefined),
    ).toBe(true);
  });

  it.each([
    ['a status other than 200 to a GET', 'GET', 201, '{}', {}, /answered 201/],
    ['an error status to a POST', 'POST', 500, '{}', {}, /answered 500/],
    [
      'a field with another value',
      'POST',
      201,
      '{"status":"failed"}',
      { status: 'open' },
      /status "failed"/,
    ],
    ['a body that is not JSON', 'POST', 201, 'oops', { status: 'open' }, /not JSON: oops/],
  ] as const)(
    'rejects the round at %s',
    async (_case, method, status, body, expectFields, message) => {
      const target = await recordingServer(() => ({ status, body }));
      servers.push(target.server);
      const subject = httpLoad(
        'wrong',
        { method, url: target.url, body: method === 'POST' ? '{}' : undefined, expectFields },
        { durationMs: 5_000, warmupMs: 0, concurrency: 4 },
      );

      await expect(measure(subject)).rejects.toThrow(message);
      // The first wrong answer stopped every loop: at most one request per loop was sent.
      expect(target.seen.length).toBeLessThanOrEqual(4);
    },
  );
});
