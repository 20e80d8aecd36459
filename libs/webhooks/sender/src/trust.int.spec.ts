import { signatureHeader, verifyWebhook } from '@xaalis/webhook-signature';
import {
  answer,
  createTestCertificates,
  hang,
  redirect,
  sendInChild,
  startHttpsReceiver,
  type ChildSend,
  type HttpsReceiver,
  type ReceiverReply,
  type RecordedRequest,
  type TestCertificates,
} from './testing';

/**
 * CONTRACT 9: a local receiver is trusted through NODE_EXTRA_CA_CERTS, which Node reads once at
 * start, so each case runs the sender in a fresh child process, with and without it.
 */
describe('sending with trust from NODE_EXTRA_CA_CERTS', () => {
  let certs: TestCertificates;
  let receiver: HttpsReceiver;
  const SECRET = 'whsec_trust_test';

  /** Per path: `/flaky` plays 500, 500, 200; the others always answer the same. */
  const byPath = () => {
    const flaky = [answer(500, 'try later'), answer(500), answer(200)];
    let flakyCalls = 0;
    return (request: RecordedRequest): ReceiverReply => {
      if (request.path === '/flaky') return flaky[Math.min(flakyCalls++, flaky.length - 1)];
      if (request.path === '/redirect') return redirect('https://10.0.0.1/internal');
      if (request.path === '/hang') return hang();
      return answer(200);
    };
  };

  const signed = (path: string, eventId: string, extra: Partial<ChildSend> = {}): ChildSend => {
    const rawBody = JSON.stringify({
      id: eventId,
      type: 'payout.succeeded',
      livemode: false,
      data: { object: {} },
    });
    const timestamp = Math.floor(Date.now() / 1000);
    return {
      url: receiver.url(path),
      rawBody,
      headers: {
        'Xaalis-Signature': signatureHeader({ secrets: [SECRET], timestamp, rawBody }),
        'Xaalis-Event-Id': eventId,
      },
      allowedHosts: ['localhost'],
      ...extra,
    };
  };

  beforeAll(async () => {
    certs = createTestCertificates();
    receiver = await startHttpsReceiver({ cert: certs.cert, key: certs.key, behaviour: byPath() });
  });
  afterAll(async () => {
    await receiver.close();
    certs.remove();
  });

  it('fails the TLS handshake without the CA, before any request is sent', async () => {
    const [result] = await sendInChild([signed('/ok', 'evt_untrusted')]);
    expect(result).toMatchObject({
      outcome: 'failed',
      statusCode: null,
      error: 'TLS: certificate not trusted (UNABLE_TO_VERIFY_LEAF_SIGNATURE)',
    });
    expect(receiver.connections()).toBe(1);
    expect(receiver.requests).toHaveLength(0);
  });

  it('with the CA: delivers signed, fails 500 twice then succeeds, fails a 302 and times out a hang', async () => {
    const results = await sendInChild(
      [
        signed('/ok', 'evt_signed'),
        signed('/flaky', 'evt_flaky'),
        signed('/flaky', 'evt_flaky'),
        signed('/flaky', 'evt_flaky'),
        signed('/redirect', 'evt_redirect'),
        signed('/hang', 'evt_hang', { timeoutMs: 300 }),
      ],
      certs.caPath,
    );

    expect(
      results.map(({ outcome, statusCode, error }) => ({ outcome, statusCode, error })),
    ).toEqual([
      { outcome: 'succeeded', statusCode: 200, error: null },
      { outcome: 'failed', statusCode: 500, error: 'HTTP 500: try later' },
      { outcome: 'failed', statusCode: 500, error: 'HTTP 500' },
      { outcome: 'succeeded', statusCode: 200, error: null },
      { outcome: 'failed', statusCode: 302, error: 'HTTP 302: redirects are not followed' },
      { outcome: 'failed', statusCode: null, error: 'timeout: no response within 300 ms' },
    ]);

    expect(receiver.requests.map((r) => r.path)).toEqual([
      '/ok',
      '/flaky',
      '/flaky',
      '/flaky',
      '/redirect',
      '/hang',
    ]);
    const [first] = receiver.requests;
    expect(first.headers['content-type']).toBe('application/json');
    expect(first.headers['xaalis-event-id']).toBe('evt_signed');
    const event = verifyWebhook({
      rawBody: first.rawBody,
      header: first.headers['xaalis-signature'],
      secret: SECRET,
    });
    expect(event).toMatchObject({ id: 'evt_signed', type: 'payout.succeeded' });
    await expect(receiver.requests[5].replied).resolves.toBe('aborted');
  });
});
