import { Agent } from 'node:https';
import { loadConfig } from '@xaalis/config';
import { DomainError } from '@xaalis/kernel';
import { assertPublicWebhookTarget, resolveAll, type Resolve } from '@xaalis/net-guard';
import { sendWebhook, type SendResult } from './send-webhook';
import {
  answer,
  createTestCertificates,
  redirect,
  startHttpsReceiver,
  type HttpsReceiver,
  type TestCertificates,
} from './testing';
import { createWebhookAgent } from './webhook-agent';

/**
 * CONTRACT 9 against every spelling of "somewhere private" we know of, with WEBHOOK_ALLOWED_HOSTS
 * at its default (empty). Each URL is refused twice: at registration (a 400) and by the sender
 * (no connection at all). Where a form names loopback, it carries the port of a live receiver
 * whose certificate is trusted and names 127.0.0.1, so a guard that let it through would deliver:
 * the receiver counting zero connections is what shows the guard, not luck, stopped it.
 */
describe('SSRF matrix', () => {
  const allowedHosts = loadConfig({}).webhookAllowedHosts;
  let certs: TestCertificates;
  let receiver: HttpsReceiver;
  let agent: Agent;
  let port: number;

  beforeAll(async () => {
    certs = createTestCertificates(['rebind.example']);
    receiver = await startHttpsReceiver({ cert: certs.cert, key: certs.key });
    agent = createWebhookAgent({ ca: certs.ca });
    port = receiver.port;
  });
  afterAll(async () => {
    agent.destroy();
    await receiver.close();
    certs.remove();
  });

  const PUBLIC = '93.184.216.34';
  const dns: Record<string, string[]> = {
    'loopback.example': ['127.0.0.1'],
    'mapped.example': ['::ffff:127.0.0.1'],
    'split.example': [PUBLIC, '10.0.0.8'],
  };
  const stubDns: Resolve = async (host) => {
    const answer = dns[host];
    if (!answer) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return answer;
  };

  const send = (
    url: string,
    extra: { resolve?: Resolve; agent?: Agent; allowed?: string[] } = {},
  ): Promise<SendResult> =>
    sendWebhook({
      url,
      rawBody: '{"id":"evt_ssrf"}',
      headers: { 'Xaalis-Event-Id': 'evt_ssrf' },
      allowedHosts: extra.allowed ?? allowedHosts,
      agent: extra.agent ?? agent,
      resolve: extra.resolve ?? stubDns,
      timeoutMs: 2000,
    });

  const register = (url: string, resolve: Resolve = stubDns) =>
    assertPublicWebhookTarget(url, allowedHosts, resolve);

  const BLOCKED = /^blocked: .+ (is|resolves to) a private, loopback or link-local address$/;

  /** [url, what the sender says]; `${port}` is the live receiver's. */
  const matrix = (): Array<[string, string, RegExp | string]> => [
    ['scheme http', `http://127.0.0.1:${port}/`, 'URL must use https://'],
    ['scheme http, public host', 'http://example.com/', 'URL must use https://'],
    ['decimal', `https://2130706433:${port}/`, BLOCKED],
    ['hex', `https://0x7f000001:${port}/`, BLOCKED],
    ['dotted hex', `https://0x7f.0x0.0x0.0x1:${port}/`, BLOCKED],
    ['octal', `https://0177.0.0.1:${port}/`, BLOCKED],
    ['short', `https://127.1:${port}/`, BLOCKED],
    ['short hex', `https://0x7f.1:${port}/`, BLOCKED],
    ['plain loopback', `https://127.0.0.1:${port}/`, BLOCKED],
    ['loopback, trailing dot', `https://127.0.0.1.:${port}/`, BLOCKED],
    ['zero', `https://0:${port}/`, BLOCKED],
    ['0.0.0.0', `https://0.0.0.0:${port}/`, BLOCKED],
    ['IPv6 loopback', `https://[::1]:${port}/`, BLOCKED],
    ['IPv6 unspecified', `https://[::]:${port}/`, BLOCKED],
    ['IPv4-mapped dotted', `https://[::ffff:127.0.0.1]:${port}/`, BLOCKED],
    ['IPv4-mapped hex', `https://[::ffff:7f00:1]:${port}/`, BLOCKED],
    ['IPv4-mapped long form', `https://[0:0:0:0:0:ffff:127.0.0.1]:${port}/`, BLOCKED],
    ['IPv4-compatible', `https://[::127.0.0.1]:${port}/`, BLOCKED],
    ['cloud metadata', 'https://169.254.169.254/latest/meta-data/', BLOCKED],
    ['metadata, mapped', 'https://[::ffff:169.254.169.254]/', BLOCKED],
    ['carrier-grade NAT', 'https://100.64.0.1/', BLOCKED],
    ['10/8', 'https://10.1.2.3/', BLOCKED],
    ['172.16/12', 'https://172.16.0.1/', BLOCKED],
    ['172.31 edge', 'https://172.31.255.254/', BLOCKED],
    ['192.168/16', 'https://192.168.1.1/', BLOCKED],
    ['ULA fc00', 'https://[fc00::1]/', BLOCKED],
    ['ULA fd12', 'https://[fd12::1]/', BLOCKED],
    ['link-local v6', 'https://[fe80::1]/', BLOCKED],
    ['multicast v4', 'https://224.0.0.1/', BLOCKED],
    ['multicast v6', 'https://[ff02::1]/', BLOCKED],
    ['broadcast', 'https://255.255.255.255/', BLOCKED],
    ['documentation range', 'https://192.0.2.1/', BLOCKED],
    ['NAT64 of loopback', `https://[64:ff9b::127.0.0.1]:${port}/`, BLOCKED],
    ['NAT64 of 10/8', 'https://[64:ff9b::a00:1]/', BLOCKED],
    ['6to4 of loopback', `https://[2002:7f00:1::]:${port}/`, BLOCKED],
    ['6to4 of 192.168/16', 'https://[2002:c0a8:101::1]/', BLOCKED],
    ['localhost', `https://localhost:${port}/`, BLOCKED],
    ['localhost, upper case', `https://LOCALHOST:${port}/`, BLOCKED],
    ['localhost, trailing dot', `https://localhost.:${port}/`, BLOCKED],
    ['a name under localhost', `https://hooks.localhost:${port}/`, BLOCKED],
    ['fullwidth localhost', `https://ｌｏｃａｌｈｏｓｔ:${port}/`, BLOCKED],
    ['a name resolving to loopback', `https://loopback.example:${port}/`, BLOCKED],
    ['a name resolving to mapped loopback', `https://mapped.example:${port}/`, BLOCKED],
    ['a name with one private address among public ones', 'https://split.example/', BLOCKED],
    [
      'userinfo trick',
      `https://example.com@127.0.0.1:${port}/`,
      'URL must not contain credentials',
    ],
    [
      'userinfo with password',
      `https://a:b@127.0.0.1:${port}/`,
      'URL must not contain credentials',
    ],
  ];

  it('has at least 30 forms', () => {
    expect(matrix().length).toBeGreaterThanOrEqual(30);
  });

  it('refuses every form at registration and at send, without a single connection', async () => {
    const outcomes = [];
    for (const [name, url, senderError] of matrix()) {
      const registered = await register(url).then(
        () => 'accepted',
        (error: unknown) => (error instanceof DomainError ? error.code : String(error)),
      );
      const sent = await send(url);
      outcomes.push({ name, registered, sent: [sent.outcome, sent.statusCode, sent.error] });
      expect({ name, registered }).toEqual({ name, registered: 'validation_error' });
      expect({ name, outcome: sent.outcome, statusCode: sent.statusCode }).toEqual({
        name,
        outcome: 'failed',
        statusCode: null,
      });
      if (typeof senderError === 'string') expect(sent.error).toBe(senderError);
      else expect(sent.error).toMatch(senderError);
    }
    expect(outcomes).toHaveLength(matrix().length);
    expect(receiver.connections()).toBe(0);
    expect(receiver.requests).toHaveLength(0);
  });

  it('catches DNS rebinding: public at registration, loopback at connect', async () => {
    const answers = [[PUBLIC], ['127.0.0.1']];
    const rebinding: Resolve = async () => answers.shift() ?? ['127.0.0.1'];
    const url = `https://rebind.example:${port}/hooks`;

    await expect(register(url, rebinding)).resolves.toBeUndefined();
    const sent = await send(url, { resolve: rebinding });
    expect(sent).toMatchObject({
      outcome: 'failed',
      statusCode: null,
      error: 'blocked: rebind.example resolves to a private, loopback or link-local address',
    });
    expect(receiver.connections()).toBe(0);

    // Control: the certificate names rebind.example, so only the guard stood in the way.
    const allowed = await send(url, {
      resolve: async () => ['127.0.0.1'],
      allowed: ['rebind.example'],
    });
    expect(allowed).toMatchObject({ outcome: 'succeeded', statusCode: 200 });
  });

  it('checks the connected address even when an agent brings its own, unguarded lookup', async () => {
    const naive = new Agent({
      ca: certs.ca,
      lookup: (_host, options, callback) =>
        options.all
          ? callback(null, [{ address: '127.0.0.1', family: 4 }])
          : callback(null, '127.0.0.1', 4),
    });
    const before = receiver.requests.length;
    const sent = await send(`https://rebind.example:${port}/`, {
      agent: naive,
      resolve: async () => [PUBLIC],
    });
    naive.destroy();
    expect(sent).toMatchObject({
      outcome: 'failed',
      statusCode: null,
      error: 'blocked: rebind.example resolves to a private, loopback or link-local address',
    });
    expect(receiver.requests).toHaveLength(before);
  });

  it('fails a public receiver that redirects to a private address, and never follows', async () => {
    // The "public" receiver is the loopback one, let through by name as tests do.
    receiver.setBehaviour(redirect('https://169.254.169.254/latest/meta-data/'));
    const before = receiver.requests.length;
    const sent = await send(receiver.url('/public-hook'), {
      allowed: ['localhost'],
      resolve: resolveAll,
    });
    receiver.setBehaviour(answer(200));
    expect(sent).toMatchObject({
      outcome: 'failed',
      statusCode: 302,
      error: 'HTTP 302: redirects are not followed',
    });
    expect(receiver.requests.slice(before).map((r) => r.path)).toEqual(['/public-hook']);
  });

  it('lets a host listed in WEBHOOK_ALLOWED_HOSTS through, at registration and at send', async () => {
    const listed = loadConfig({
      WEBHOOK_ALLOWED_HOSTS: 'LocalHost, 127.0.0.1',
    }).webhookAllowedHosts;
    for (const url of [
      receiver.url('/allowed'),
      `https://127.0.0.1:${port}/allowed`,
      `https://127.1:${port}/allowed`,
    ]) {
      await expect(assertPublicWebhookTarget(url, listed)).resolves.toBeUndefined();
      expect(
        await sendWebhook({ url, rawBody: '{}', headers: {}, allowedHosts: listed, agent }),
      ).toMatchObject({ outcome: 'succeeded', statusCode: 200 });
    }
  });
});
