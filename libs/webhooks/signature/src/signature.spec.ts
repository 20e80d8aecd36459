import {
  computeSignature,
  parseSignatureHeader,
  signatureHeader,
  verifyWebhook,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from './index';

/**
 * Known answers computed outside this code, with the OpenSSL CLI:
 *   printf '%s' '<t>.<body>' | openssl dgst -sha256 -hmac '<secret>'
 */
const BODY =
  '{"id":"evt_01JGXAALISKAT0000000000001","type":"payment.succeeded","livemode":false,"created_at":"2026-01-01T00:00:00.000Z","data":{"object":{"id":"pay_01JGXAALISKAT0000000000001","object":"payment","amount":15000,"currency":"XOF","status":"succeeded"}}}';
const T = 1767225600;
const SECRET = 'whsec_test_known_answer_1';
const SIG = '306221dd7a34298d1951eacd38b196bc8df2f4c2977a66117801c7d580535071';
const NEW_SECRET = 'whsec_rotated_new_2';
const NEW_SIG = '8218166ae7869213879212adb8c525835f38c038344b5e3021a19c1926b5ecca';
const UTF8_BODY = '{"note":"Thiéboudienne à Dakar ✓"}';
const UTF8_SIG = '1e022695f9ee64c9e81e4457663d6689f909a5d483a36b699930bb142f98640f';

const at = (seconds: number) => new Date(seconds * 1000);

const reasonOf = (run: () => unknown): WebhookVerificationReason | undefined => {
  try {
    run();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
  return undefined;
};

describe('signing', () => {
  it('matches the known answers for ASCII, UTF-8 and empty bodies', () => {
    expect(computeSignature(SECRET, T, BODY)).toBe(SIG);
    expect(computeSignature(NEW_SECRET, T, Buffer.from(BODY))).toBe(NEW_SIG);
    expect(computeSignature('whsec_utf8', 1700000000, UTF8_BODY)).toBe(UTF8_SIG);
    expect(computeSignature('whsec_utf8', 1700000000, Buffer.from(UTF8_BODY, 'utf8'))).toBe(
      UTF8_SIG,
    );
    expect(computeSignature('whsec_empty', 1700000000, '')).toBe(
      'c9cfe8f30ac5c22d43054561c8df0c592096606456179ac5e8eac4cbf85cc293',
    );
  });

  it('writes one v1 per secret, old and new during a rotation', () => {
    expect(signatureHeader({ secrets: [SECRET], timestamp: T, rawBody: BODY })).toBe(
      `t=${T},v1=${SIG}`,
    );
    expect(signatureHeader({ secrets: [SECRET, NEW_SECRET], timestamp: T, rawBody: BODY })).toBe(
      `t=${T},v1=${SIG},v1=${NEW_SIG}`,
    );
  });

  it('refuses to sign without a secret or with a fractional timestamp', () => {
    expect(() => signatureHeader({ secrets: [], timestamp: T, rawBody: BODY })).toThrow(TypeError);
    expect(() => signatureHeader({ secrets: [SECRET], timestamp: 1.5, rawBody: BODY })).toThrow(
      TypeError,
    );
    expect(() =>
      signatureHeader({ secrets: [SECRET], timestamp: Date.now(), rawBody: BODY }),
    ).not.toThrow();
  });
});

describe('verifyWebhook', () => {
  const header = `t=${T},v1=${SIG}`;

  it('returns the event for a valid delivery, from a string or the raw bytes', () => {
    const event = verifyWebhook({ rawBody: BODY, header, secret: SECRET, now: at(T + 10) });
    expect(event).toMatchObject({
      id: 'evt_01JGXAALISKAT0000000000001',
      type: 'payment.succeeded',
      livemode: false,
    });
    expect(event.data.object).toMatchObject({ amount: 15000, currency: 'XOF' });
    const bytes = Buffer.from(`xx${BODY}`).subarray(2);
    expect(verifyWebhook({ rawBody: bytes, header, secret: SECRET, now: at(T) }).id).toBe(event.id);
  });

  it('accepts the header while secrets overlap, whichever secret the receiver holds', () => {
    const both = `t=${T},v1=${SIG},v1=${NEW_SIG}`;
    for (const secret of [SECRET, NEW_SECRET, [NEW_SECRET, 'whsec_other']]) {
      expect(verifyWebhook({ rawBody: BODY, header: both, secret, now: at(T) }).id).toBe(
        'evt_01JGXAALISKAT0000000000001',
      );
    }
    expect(
      reasonOf(() =>
        verifyWebhook({ rawBody: BODY, header: both, secret: 'whsec_other', now: at(T) }),
      ),
    ).toBe('no_matching_signature');
  });

  it('verifies the bytes received, not the JSON re-serialised', () => {
    const reserialised = JSON.stringify(JSON.parse(BODY), null, 1);
    expect(
      reasonOf(() => verifyWebhook({ rawBody: reserialised, header, secret: SECRET, now: at(T) })),
    ).toBe('no_matching_signature');
    expect(
      reasonOf(() => verifyWebhook({ rawBody: `${BODY} `, header, secret: SECRET, now: at(T) })),
    ).toBe('no_matching_signature');
    const utf8 = `t=1700000000,v1=${UTF8_SIG}`;
    expect(
      verifyWebhook({
        rawBody: Buffer.from(UTF8_BODY),
        header: utf8,
        secret: 'whsec_utf8',
        now: at(1700000000),
      }),
    ).toEqual({ note: 'Thiéboudienne à Dakar ✓' });
    const latin1 = Buffer.from(UTF8_BODY, 'latin1');
    expect(
      reasonOf(() =>
        verifyWebhook({ rawBody: latin1, header: utf8, secret: 'whsec_utf8', now: at(1700000000) }),
      ),
    ).toBe('no_matching_signature');
  });

  it('rejects a timestamp more than the tolerance away, either side', () => {
    const verifyAt = (now: number, toleranceSeconds?: number) =>
      reasonOf(() =>
        verifyWebhook({ rawBody: BODY, header, secret: SECRET, now: at(now), toleranceSeconds }),
      );
    expect(verifyAt(T + 300)).toBeUndefined();
    expect(verifyAt(T - 300)).toBeUndefined();
    expect(verifyAt(T + 301)).toBe('timestamp_out_of_tolerance');
    expect(verifyAt(T - 301)).toBe('timestamp_out_of_tolerance');
    expect(verifyAt(T + 301, 600)).toBeUndefined();
    expect(verifyAt(T + 61, 60)).toBe('timestamp_out_of_tolerance');
  });

  it('does not let a changed timestamp reuse a signature', () => {
    expect(
      reasonOf(() =>
        verifyWebhook({
          rawBody: BODY,
          header: `t=${T + 1},v1=${SIG}`,
          secret: SECRET,
          now: at(T),
        }),
      ),
    ).toBe('no_matching_signature');
  });

  it('finds the matching v1 among others, whatever its position', () => {
    const zeros = '0'.repeat(64);
    for (const mixed of [`v1=${zeros},t=${T},v1=${SIG}`, `t=${T}, v1=short, v1=${SIG} ,v0=abc`]) {
      expect(
        reasonOf(() => verifyWebhook({ rawBody: BODY, header: mixed, secret: SECRET, now: at(T) })),
      ).toBeUndefined();
    }
    expect(
      reasonOf(() =>
        verifyWebhook({ rawBody: BODY, header: [header, header], secret: SECRET, now: at(T) }),
      ),
    ).toBeUndefined();
    expect(
      reasonOf(() =>
        verifyWebhook({
          rawBody: BODY,
          header: `t=${T},v1=${SIG.toUpperCase()}`,
          secret: SECRET,
          now: at(T),
        }),
      ),
    ).toBe('no_matching_signature');
  });

  it.each<[string, string | string[] | undefined | null, WebhookVerificationReason]>([
    ['absent', undefined, 'missing_header'],
    ['null', null, 'missing_header'],
    ['empty', '', 'missing_header'],
    ['blank', '  ', 'missing_header'],
    ['an empty array', [], 'missing_header'],
    ['without t', `v1=${SIG}`, 'bad_header'],
    ['without v1', `t=${T}`, 'bad_header'],
    ['with only another scheme', `t=${T},v0=${SIG}`, 'bad_header'],
    ['with a non-numeric t', `t=abc,v1=${SIG}`, 'bad_header'],
    ['with a negative t', `t=-5,v1=${SIG}`, 'bad_header'],
    ['with milliseconds for t', `t=${T}000,v1=${SIG}`, 'bad_header'],
    ['with two different t', `t=${T},t=${T + 1},v1=${SIG}`, 'bad_header'],
    ['with an item without =', `t=${T},${SIG}`, 'bad_header'],
    ['in another format', `sha256=${SIG}`, 'bad_header'],
  ])('rejects a header %s', (_, given, reason) => {
    expect(
      reasonOf(() => verifyWebhook({ rawBody: BODY, header: given, secret: SECRET, now: at(T) })),
    ).toBe(reason);
  });

  it('says when a correctly signed body is not a JSON object', () => {
    for (const body of ['not json', '[1,2]', 'null']) {
      const signed = signatureHeader({ secrets: [SECRET], timestamp: T, rawBody: body });
      expect(
        reasonOf(() =>
          verifyWebhook({ rawBody: body, header: signed, secret: SECRET, now: at(T) }),
        ),
      ).toBe('bad_payload');
    }
  });

  it('throws a TypeError, not a verification failure, when given a parsed body', () => {
    const parsed = JSON.parse(BODY) as unknown as string;
    expect(() => verifyWebhook({ rawBody: parsed, header, secret: SECRET, now: at(T) })).toThrow(
      TypeError,
    );
  });

  it('reads the clock when no time is given', () => {
    const now = Math.floor(Date.now() / 1000);
    const fresh = signatureHeader({ secrets: [SECRET], timestamp: now, rawBody: BODY });
    expect(verifyWebhook({ rawBody: BODY, header: fresh, secret: SECRET }).type).toBe(
      'payment.succeeded',
    );
    expect(reasonOf(() => verifyWebhook({ rawBody: BODY, header, secret: SECRET }))).toBe(
      'timestamp_out_of_tolerance',
    );
  });
});

describe('parseSignatureHeader', () => {
  it('returns the timestamp and every v1 in order', () => {
    expect(parseSignatureHeader(`t=${T},v1=aa,v2=zz,v1=bb`)).toEqual({
      timestamp: T,
      signatures: ['aa', 'bb'],
    });
  });

  it('carries the reason on the error and a readable message', () => {
    const error = new WebhookVerificationError('timestamp_out_of_tolerance');
    expect(error).toBeInstanceOf(Error);
    expect(error.reason).toBe('timestamp_out_of_tolerance');
    expect(error.message).toMatch(/too far/);
  });
});
