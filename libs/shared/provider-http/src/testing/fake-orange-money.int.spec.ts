import { startFakeOrangeMoney, type FakeOrangeMoney } from './fake-orange-money';

const CREDENTIALS = {
  clientId: 'id',
  clientSecret: 'secret',
  merchantCode: '621513',
  callbackApiKey: 'key',
};
let om: FakeOrangeMoney;

beforeEach(async () => {
  om = await startFakeOrangeMoney(CREDENTIALS);
});

afterEach(() => om.close());

async function token(
  form: Record<string, string> = {
    grant_type: 'client_credentials',
    client_id: 'id',
    client_secret: 'secret',
  },
) {
  return fetch(`${om.url}/oauth/v1/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
}

async function api(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const { access_token } = (await (await token()).json()) as { access_token: string };
  return fetch(`${om.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${access_token}`,
      'content-type': 'application/json',
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const qrBody = (overrides: Record<string, unknown> = {}) => ({
  amount: { unit: 'XOF', value: 1500 },
  code: '621513',
  name: 'Boutique Awa',
  reference: 'pay_1',
  metadata: { paymentId: 'pay_1' },
  validity: 900,
  ...overrides,
});

describe('the fake Orange Money', () => {
  it('issues tokens only for the right client credentials', async () => {
    const good = await token();
    expect(good.status).toBe(200);
    expect(await good.json()).toMatchObject({ token_type: 'bearer', expires_in: 299 });

    const bad = await token({
      grant_type: 'client_credentials',
      client_id: 'id',
      client_secret: 'nope',
    });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ error: 'invalid_client' });
    expect(om.tokensIssued()).toBe(1);
  });

  it('answers 401 without a valid token and 415 without a JSON content type, even on a GET', async () => {
    const noToken = await fetch(`${om.url}/api/eWallet/v1/transactions?reference=pay_1`, {
      headers: { 'content-type': 'application/json' },
    });
    expect(noToken.status).toBe(401);

    const noType = await api('GET', '/api/eWallet/v1/transactions?reference=pay_1', undefined, {
      'content-type': 'text/plain',
    });
    expect(noType.status).toBe(415);
  });

  it('creates a QR code with its deep links and validity window', async () => {
    const response = await api('POST', '/api/eWallet/v4/qrcode', qrBody());
    const qr = (await response.json()) as Record<string, unknown>;

    expect(response.status).toBe(200);
    expect(qr).toMatchObject({
      deepLink: expect.any(String),
      qrId: expect.any(String),
      validity: 900,
    });
    expect(qr['deepLinks']).toEqual({ MAXIT: expect.any(String), OM: expect.any(String) });
  });

  it.each([
    ['a fractional amount', { amount: { unit: 'XOF', value: 10.5 } }],
    ['another currency', { amount: { unit: 'EUR', value: 10 } }],
    ['a validity over a day', { validity: 86_401 }],
    [
      'more than 10 metadata',
      { metadata: Object.fromEntries([...Array(11).keys()].map((i) => [`k${i}`, 'v'])) },
    ],
    ['another merchant code', { code: '000000' }],
  ])('refuses %s with 400', async (_case, overrides) => {
    const response = await api('POST', '/api/eWallet/v4/qrcode', qrBody(overrides));

    expect(response.status).toBe(400);
    expect(om.qrCodes.size).toBe(0);
  });

  it('lists the transactions of a reference, knows their status, and finds nothing with a type filter', async () => {
    await api('POST', '/api/eWallet/v4/qrcode', qrBody());
    const paid = om.pay('pay_1');

    expect(await (await api('GET', '/api/eWallet/v1/transactions?reference=pay_1')).json()).toEqual(
      [paid],
    );
    expect(
      await (
        await api('GET', '/api/eWallet/v1/transactions?reference=pay_1&type=MERCHANT_PAYMENT')
      ).json(),
    ).toEqual([]);
    expect(
      await (await api('GET', `/api/eWallet/v1/transactions/${paid.transactionId}/status`)).json(),
    ).toEqual({ status: 'SUCCESS' });
    expect((await api('GET', '/api/eWallet/v1/transactions/MP0/status')).status).toBe(404);
  });

  it('an expired QR code can no longer be paid', async () => {
    await api('POST', '/api/eWallet/v4/qrcode', qrBody());
    om.expire('pay_1');

    expect(() => om.pay('pay_1')).toThrow(/expired/);
  });

  it('carries the callback API key in its notification', async () => {
    await api('POST', '/api/eWallet/v4/qrcode', qrBody());
    const paid = om.pay('pay_1');
    const notification = om.notification('pay_1');

    expect(notification.headers['authorization']).toBe('Basic key');
    expect(JSON.parse(notification.rawBody)).toEqual(paid);
  });
});
