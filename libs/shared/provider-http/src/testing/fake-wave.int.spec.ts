import { startFakeWave, type FakeWave } from './fake-wave';

const API_KEY = 'wave_sn_prod_fake_test';
let wave: FakeWave;

beforeEach(async () => {
  wave = await startFakeWave({ apiKey: API_KEY, webhookSecret: 'secret' });
});

afterEach(() => wave.close());

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${wave.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

const checkout = (overrides: Record<string, unknown> = {}) => ({
  amount: '1500',
  currency: 'XOF',
  success_url: 'https://xaalis.test/ok',
  error_url: 'https://xaalis.test/ko',
  client_reference: 'pay_1',
  ...overrides,
});

describe('the fake Wave', () => {
  it('creates a session like Wave: open, processing, launch URL, 30 minutes of life', async () => {
    const response = await post('/v1/checkout/sessions', checkout());
    const session = (await response.json()) as Record<string, string>;

    expect(response.status).toBe(200);
    expect(session).toMatchObject({
      amount: '1500',
      currency: 'XOF',
      checkout_status: 'open',
      payment_status: 'processing',
      client_reference: 'pay_1',
      wave_launch_url: `${wave.url}/c/${session['id']}`,
    });
    expect(
      Date.parse(session['when_expires'] ?? '') - Date.parse(session['when_created'] ?? ''),
    ).toBe(30 * 60_000);
  });

  it.each([
    ['a decimal amount', { amount: '1500.5' }],
    ['a number amount', { amount: 1500 }],
    ['a zero amount', { amount: '0' }],
    ['another currency', { currency: 'EUR' }],
    ['a success_url that is no URL', { success_url: 'nowhere' }],
  ])('refuses %s with 400 request-validation-error', async (_case, overrides) => {
    const response = await post('/v1/checkout/sessions', checkout(overrides));

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'request-validation-error' });
    expect(wave.sessions.size).toBe(0);
  });

  it('refuses a missing or wrong API key with 401', async () => {
    const missing = await fetch(`${wave.url}/v1/checkout/sessions/cos-1`);
    const wrong = await fetch(`${wave.url}/v1/checkout/sessions/cos-1`, {
      headers: { authorization: 'Bearer nope' },
    });

    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ code: 'missing-auth-header' });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ code: 'invalid-auth' });
  });

  it('replays an idempotency key with the same body, and refuses it with another', async () => {
    const first = await (
      await post('/v1/checkout/sessions', checkout(), { 'idempotency-key': 'k1' })
    ).json();
    const again = await (
      await post('/v1/checkout/sessions', checkout(), { 'idempotency-key': 'k1' })
    ).json();
    const other = await post('/v1/checkout/sessions', checkout({ amount: '2000' }), {
      'idempotency-key': 'k1',
    });

    expect(again).toEqual(first);
    expect(other.status).toBe(409);
    expect(wave.sessions.size).toBe(1);
  });

  it('requires an idempotency key on payouts', async () => {
    const body = { currency: 'XOF', receive_amount: '500', mobile: '+221771234567' };

    expect((await post('/v1/payout', body)).status).toBe(400);
    expect((await post('/v1/payout', body, { 'idempotency-key': 're_1' })).status).toBe(200);
    expect(wave.payouts).toHaveLength(1);
  });

  it('fails the next requests as told, then answers again', async () => {
    wave.failNext(500, 2);
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push(
        (await post('/v1/checkout/sessions', checkout({ client_reference: `pay_${i}` }))).status,
      );

    expect(statuses).toEqual([500, 500, 200]);
    expect(wave.requests).toHaveLength(3);
  });
});
