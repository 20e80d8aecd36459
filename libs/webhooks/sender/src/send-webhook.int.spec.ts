import type { Agent } from 'node:https';
import { signatureHeader, verifyWebhook } from '@xaalis/webhook-signature';
import { sendWebhook, type SendWebhookInput } from './send-webhook';
import {
  answer,
  bigBody,
  createTestCertificates,
  drop,
  hang,
  redirect,
  slowBody,
  startHttpsReceiver,
  type HttpsReceiver,
  type TestCertificates,
} from './testing';
import { createWebhookAgent } from './webhook-agent';

/**
 * The sender against a real TLS receiver on loopback, trusting the throwaway CA through the
 * agent's `ca` (fast, in process). trust.int.spec.ts repeats the essentials through
 * NODE_EXTRA_CA_CERTS, the way a deployment trusts a local receiver.
 */
describe('sendWebhook', () => {
  let certs: TestCertificates;
  let receiver: HttpsReceiver;
  let agent: Agent;
  const SECRET = 'whsec_sender_test';
  const BODY =
    '{"id":"evt_01JGSENDER","type":"payment.succeeded","livemode":false,"data":{"object":{"amount":2500}}}';

  const delivery = (overrides: Partial<SendWebhookInput> = {}): SendWebhookInput => ({
    url: receiver.url(),
    rawBody: BODY,
    headers: { 'Xaalis-Event-Id': 'evt_01JGSENDER' },
    allowedHosts: ['localhost'],
    agent,
    ...overrides,
  });

  beforeAll(() => {
    certs = createTestCertificates();
  });
  afterAll(() => certs.remove());

  beforeEach(async () => {
    receiver = await startHttpsReceiver({ cert: certs.cert, key: certs.key });
    agent = createWebhookAgent({ ca: certs.ca });
  });
  afterEach(async () => {
    agent.destroy();
    await receiver.close();
  });

  it('POSTs the exact bytes as JSON with the given headers, which verify on the receiver', async () => {
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'Xaalis-Signature': signatureHeader({ secrets: [SECRET], timestamp, rawBody: BODY }),
      'Xaalis-Event-Id': 'evt_01JGSENDER',
      'Content-Type': 'text/plain',
    };
    const result = await sendWebhook(delivery({ url: receiver.url('/hooks?src=x'), headers }));

    expect(result).toMatchObject({ outcome: 'succeeded', statusCode: 200, error: null });
    expect(result.durationMs).toEqual(expect.any(Number));
    const [received] = receiver.requests;
    expect(received).toMatchObject({ method: 'POST', path: '/hooks?src=x' });
    expect(received.rawBody.toString('utf8')).toBe(BODY);
    expect(received.headers).toMatchObject({
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(BODY)),
      'xaalis-event-id': 'evt_01JGSENDER',
      'user-agent': 'Xaalis-Webhooks/1',
    });
    const event = verifyWebhook({
      rawBody: received.rawBody,
      header: received.headers['xaalis-signature'],
      secret: SECRET,
    });
    expect(event.id).toBe(received.headers['xaalis-event-id']);
  });

  it('counts any 2xx as delivered', async () => {
    receiver.setBehaviour([answer(201), answer(202), answer(204), answer(299)]);
    const results = [];
    for (let i = 0; i < 4; i += 1) results.push(await sendWebhook(delivery()));
    expect(results.map((r) => [r.outcome, r.statusCode])).toEqual([
      ['succeeded', 201],
      ['succeeded', 202],
      ['succeeded', 204],
      ['succeeded', 299],
    ]);
  });

  it('fails on 500, 500 and then succeeds on 200, one request each', async () => {
    receiver.setBehaviour([answer(500, 'database down'), answer(500), answer(200)]);
    const results = [];
    for (let i = 0; i < 3; i += 1) results.push(await sendWebhook(delivery()));
    expect(
      results.map(({ outcome, statusCode, error }) => ({ outcome, statusCode, error })),
    ).toEqual([
      { outcome: 'failed', statusCode: 500, error: 'HTTP 500: database down' },
      { outcome: 'failed', statusCode: 500, error: 'HTTP 500' },
      { outcome: 'succeeded', statusCode: 200, error: null },
    ]);
    expect(receiver.requests).toHaveLength(3);
  });

  it('fails on 4xx with a short, sanitised snippet of the answer and nothing more', async () => {
    const page = `<html>\r\n<title>Not Found</title>\u0000\u001b[31m${'x'.repeat(5000)}SECRET-TAIL</html>`;
    receiver.setBehaviour(answer(404, page));
    const result = await sendWebhook(delivery());
    expect(result).toMatchObject({ outcome: 'failed', statusCode: 404 });
    expect(result.error).toMatch(/^HTTP 404: <html> <title>Not Found<\/title> \[31mx+…$/);
    expect(result.error?.length).toBeLessThanOrEqual('HTTP 404: '.length + 101);
    expect(result.error).not.toContain('SECRET-TAIL');
  });

  it('fails on a 302 without following it, even to a private address', async () => {
    receiver.setBehaviour(redirect('https://169.254.169.254/latest/meta-data/'));
    const result = await sendWebhook(delivery());
    expect(result).toMatchObject({
      outcome: 'failed',
      statusCode: 302,
      error: 'HTTP 302: redirects are not followed',
    });
    expect(receiver.requests).toHaveLength(1);
  });

  it('times out a receiver that accepts and never answers, and drops the connection', async () => {
    receiver.setBehaviour(hang());
    const result = await sendWebhook(delivery({ timeoutMs: 300 }));
    expect(result).toMatchObject({
      outcome: 'failed',
      statusCode: null,
      error: 'timeout: no response within 300 ms',
    });
    expect(receiver.requests).toHaveLength(1);
    await expect(receiver.requests[0].replied).resolves.toBe('aborted');
  });

  it('judges by the status that arrived in time, whatever the body does afterwards', async () => {
    // The status comes at once and the body takes 5 s. The budget is 2 s, well past the
    // headers even on a machine that stalls for a few hundred ms, and well short of the body.
    receiver.setBehaviour([slowBody(200, 50, 100), slowBody(503, 50, 100)]);
    const ok = await sendWebhook(delivery({ timeoutMs: 2_000 }));
    const unavailable = await sendWebhook(delivery({ timeoutMs: 2_000 }));
    expect(ok).toMatchObject({ outcome: 'succeeded', statusCode: 200, error: null });
    expect(unavailable).toMatchObject({ outcome: 'failed', statusCode: 503 });
    expect(unavailable.error).toMatch(/^HTTP 503: chunk 1/);
    await expect(receiver.requests[0].replied).resolves.toBe('aborted');
    await expect(receiver.requests[1].replied).resolves.toBe('aborted');
  });

  it('reads at most maxResponseBytes and then drops the connection', async () => {
    receiver.setBehaviour([
      bigBody(200, 4 * 1024 * 1024),
      bigBody(500, 4 * 1024 * 1024),
      answer(200),
    ]);
    const big = await sendWebhook(delivery({ maxResponseBytes: 1024 }));
    expect(big).toMatchObject({ outcome: 'succeeded', statusCode: 200 });
    await expect(receiver.requests[0].replied).resolves.toBe('aborted');

    const bigError = await sendWebhook(delivery());
    expect(bigError).toMatchObject({ outcome: 'failed', statusCode: 500 });
    expect(bigError.error).toBe(`HTTP 500: ${'x'.repeat(100)}…`);
    await expect(receiver.requests[1].replied).resolves.toBe('aborted');

    // Both connections were dropped, so the next delivery needs a new one.
    await sendWebhook(delivery());
    expect(receiver.connections()).toBe(3);
  });

  it('keeps the connection alive between deliveries to one origin', async () => {
    for (let i = 0; i < 20; i += 1) {
      expect(await sendWebhook(delivery())).toMatchObject({ outcome: 'succeeded' });
    }
    expect(receiver.requests).toHaveLength(20);
    expect(receiver.connections()).toBe(1);
  });

  it('opens no more connections per origin than the cap, queueing the rest', async () => {
    const capped = createWebhookAgent({ ca: certs.ca, maxSocketsPerOrigin: 2 });
    receiver.setBehaviour(slowBody(200, 2, 20));
    const results = await Promise.all(
      Array.from({ length: 10 }, () => sendWebhook(delivery({ agent: capped }))),
    );
    capped.destroy();
    expect(results.every((r) => r.outcome === 'succeeded')).toBe(true);
    expect(receiver.requests).toHaveLength(10);
    expect(receiver.connections()).toBe(2);
  });

  it('retries once on a fresh connection when a kept-alive one was closed under it', async () => {
    receiver.setBehaviour([answer(200), drop(), answer(200)]);
    expect(await sendWebhook(delivery())).toMatchObject({ outcome: 'succeeded' });
    expect(await sendWebhook(delivery())).toMatchObject({ outcome: 'succeeded', statusCode: 200 });
    expect(receiver.requests).toHaveLength(3);
    expect(receiver.connections()).toBe(2);
  });

  it('does not retry a connection dropped on its first request', async () => {
    receiver.setBehaviour([drop(), answer(200)]);
    const result = await sendWebhook(delivery());
    expect(result).toMatchObject({ outcome: 'failed', statusCode: null });
    expect(result.error).toMatch(/^connection reset by the receiver \(ECONNRESET\)$/);
    expect(receiver.requests).toHaveLength(1);
  });

  it('fails on an untrusted certificate and on a closed port, with fixed texts', async () => {
    const untrusted = createWebhookAgent();
    const tls = await sendWebhook(delivery({ agent: untrusted }));
    untrusted.destroy();
    expect(tls).toMatchObject({
      outcome: 'failed',
      statusCode: null,
      error: 'TLS: certificate not trusted (UNABLE_TO_VERIFY_LEAF_SIGNATURE)',
    });
    expect(receiver.requests).toHaveLength(0);

    const port = receiver.port;
    await receiver.close();
    const refused = await sendWebhook(delivery({ url: `https://localhost:${port}/` }));
    expect(refused).toMatchObject({
      outcome: 'failed',
      statusCode: null,
      error: 'connection refused (ECONNREFUSED)',
    });
    receiver = await startHttpsReceiver({ cert: certs.cert, key: certs.key });
  });

  it('fails without sending for non-https, credentials, bad URLs and bad header values', async () => {
    const cases: Array<[Partial<SendWebhookInput>, string]> = [
      [{ url: `http://localhost:${receiver.port}/` }, 'URL must use https://'],
      [{ url: `https://user:pw@localhost:${receiver.port}/` }, 'URL must not contain credentials'],
      [{ url: 'not a url' }, 'invalid URL'],
      [{ headers: { 'Xaalis-Event-Id': 'evt\r\nX-Injected: 1' } }, 'invalid request headers'],
    ];
    for (const [overrides, error] of cases) {
      expect(await sendWebhook(delivery(overrides))).toMatchObject({
        outcome: 'failed',
        statusCode: null,
        error,
      });
    }
    expect(receiver.connections()).toBe(0);
  });

  it('works without an agent, through the module-wide one', async () => {
    // The module-wide agent has no test CA: reaching the TLS check proves it connected.
    const result = await sendWebhook(delivery({ agent: undefined }));
    expect(result.error).toBe('TLS: certificate not trusted (UNABLE_TO_VERIFY_LEAF_SIGNATURE)');
    expect(receiver.connections()).toBe(1);
  });
});
