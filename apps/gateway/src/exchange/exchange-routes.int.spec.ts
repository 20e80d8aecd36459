import {
  CreateExchangeQuoteRequest,
  CreateExchangeRequest,
  EXCHANGE_CREATE,
  EXCHANGE_PUBLIC_GET,
  EXCHANGE_QUOTE_CREATE,
  type ExchangeQuoteReply,
  type ExchangeReply,
  PublicExchangeRef,
  validateMessage,
} from '@xaalis/contracts';
import { describeWithPostgres } from '@xaalis/testing';
import { busAnswer, type Gateway, startGateway, zeroBalanceBus } from '../testing/gateway-harness';
import { HttpClient, type HttpResult } from '../testing/http-client';

const EX = 'ex_01JD8ZP5V6W7X8Y9Z0A1B2C3D4';
const CS = 'pay_01JD8ZP5V6W7X8Y9Z0A1B2C3D4_secret_abc';

const quoteReply: ExchangeQuoteReply = {
  object: 'exchange_quote',
  id: 'exq_01JD8ZP5V6W7X8Y9Z0A1B2C3D4',
  quote: 'opaque-token',
  from: 'wave',
  to: 'orange_money',
  send_amount: 10_000,
  fee: 300,
  receive_amount: 9_700,
  expires_at: '2026-11-22T10:10:00.000Z',
};

const exchangeReply: ExchangeReply = {
  object: 'exchange',
  id: EX,
  status: 'awaiting_payment',
  from: 'wave',
  to: 'orange_money',
  send_amount: 10_000,
  fee: 300,
  receive_amount: 9_700,
  currency: 'XOF',
  livemode: false,
  created_at: '2026-11-22T10:00:00.000Z',
  checkout_url: `http://127.0.0.1/checkout/pay_01JD8ZP5V6W7X8Y9Z0A1B2C3D4?cs=${CS}`,
  cs: CS,
};

const newQuote = (overrides: Record<string, unknown> = {}) => ({
  from: 'wave',
  to: 'orange_money',
  send_amount: 10_000,
  phone: '+221771234567',
  ...overrides,
});

/**
 * The public exchange routes' wiring, the exchange app stood in for by the harness's bus: no
 * credentials, the idempotency key and its ids, the client secret, the messages sent (each
 * checked against its contract) and the exchange's refusals passed on.
 */
describeWithPostgres('gateway: the public exchange routes', () => {
  let gw: Gateway;
  let http: HttpClient;
  /** What the exchange app answers next, when not the reply of the pattern. */
  let refusal: { code: string; message: string; details?: object } | undefined;
  const send = zeroBalanceBus.send.bind(zeroBalanceBus);

  beforeAll(async () => {
    gw = await startGateway();
    http = new HttpClient(gw.url);
    jest.spyOn(zeroBalanceBus, 'send').mockImplementation((pattern: string, data: unknown) => {
      const replies: Record<string, unknown> = {
        [EXCHANGE_QUOTE_CREATE]: quoteReply,
        [EXCHANGE_CREATE]: exchangeReply,
        [EXCHANGE_PUBLIC_GET]: exchangeReply,
      };
      if (!(pattern in replies)) return send(pattern, data);
      zeroBalanceBus.requests.push({ pattern, data });
      if (refusal) return busAnswer({ ok: false, error: refusal });
      return busAnswer({ ok: true, value: replies[pattern] });
    });
  });

  afterAll(async () => {
    jest.restoreAllMocks();
    await gw?.close();
  });

  beforeEach(() => {
    zeroBalanceBus.requests.length = 0;
    refusal = undefined;
  });

  const sent = (pattern: string) =>
    zeroBalanceBus.requests.filter((request) => request.pattern === pattern).map((r) => r.data);

  it('quotes without credentials, sending the terms as given', async () => {
    const quoted = await http.call('POST', '/v1/public/exchange-quotes', { body: newQuote() });
    expect(quoted.status).toBe(201);
    expect(quoted.body).toEqual(quoteReply);
    const [message] = sent(EXCHANGE_QUOTE_CREATE);
    expect(validateMessage(CreateExchangeQuoteRequest, message)).toEqual(newQuote());
  });

  it('refuses a quote from a provider to itself, naming `to`, without asking the exchange', async () => {
    const refused = await http.call('POST', '/v1/public/exchange-quotes', {
      body: newQuote({ to: 'wave', send_amount: 499.5 }),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: 'validation_error',
      details: [
        { field: 'to', issue: 'must differ from `from`' },
        { field: 'send_amount', issue: 'must be an integer' },
      ],
    });
    expect(sent(EXCHANGE_QUOTE_CREATE)).toEqual([]);
  });

  it('leaves an amount outside the limit to the exchange, and passes on its 422', async () => {
    refusal = {
      code: 'limit_exceeded',
      message: 'An exchange sends from 500 to 1000000 XOF.',
      details: { min: 500, max: 1_000_000 },
    };
    const refused = await http.call('POST', '/v1/public/exchange-quotes', {
      body: newQuote({ send_amount: 1_000_001 }),
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ error: refusal });
    expect(sent(EXCHANGE_QUOTE_CREATE)).toEqual([newQuote({ send_amount: 1_000_001 })]);
  });

  it('requires the idempotency key to create, and never asks the exchange without it', async () => {
    const body = { quote: quoteReply.quote, otp: '123456' };
    const missing = await http.call('POST', '/v1/public/exchanges', { body });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('validation_error');
    expect(sent(EXCHANGE_CREATE)).toEqual([]);
  });

  it('creates with three new ids of one ULID body, the same again for a retry of the key', async () => {
    const body = { quote: quoteReply.quote, otp: '123456' };
    const created = await http.call('POST', '/v1/public/exchanges', {
      body,
      idempotencyKey: 'exchange-1',
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual(exchangeReply);
    const [message] = sent(EXCHANGE_CREATE) as CreateExchangeRequest[];
    expect(validateMessage(CreateExchangeRequest, message)).toMatchObject(body);
    const ulid = message!.exchange_id.slice('ex_'.length);
    expect(message).toMatchObject({ payment_id: `pay_${ulid}`, payout_id: `po_${ulid}` });

    const again = await http.call('POST', '/v1/public/exchanges', {
      body,
      idempotencyKey: 'exchange-1',
    });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(created.text);
    expect(sent(EXCHANGE_CREATE)).toHaveLength(1);

    await http.call('POST', '/v1/public/exchanges', { body, idempotencyKey: 'exchange-2' });
    const [, other] = sent(EXCHANGE_CREATE) as CreateExchangeRequest[];
    expect(other!.exchange_id).not.toBe(message!.exchange_id);
  });

  it.each([
    ['invalid_quote', 400],
    ['invalid_otp', 400],
    ['limit_exceeded', 422],
    ['test_mode_disabled', 403],
    ['unavailable', 503],
  ])('passes on the exchange refusing with %s (%p)', async (code, status) => {
    refusal = { code, message: 'Refused.' };
    const refused = await http.call('POST', '/v1/public/exchanges', {
      body: { quote: quoteReply.quote, otp: '000000' },
      idempotencyKey: `refused-${code}`,
    });
    expect(refused.status).toBe(status);
    expect(refused.body).toEqual({ error: { code, message: 'Refused.' } });
  });

  it('follows an exchange with its client secret, a missing one being a 404', async () => {
    const followed = await http.call('GET', `/v1/public/exchanges/${EX}?cs=${CS}`);
    expect(followed.status).toBe(200);
    expect(followed.body).toEqual(exchangeReply);
    const [message] = sent(EXCHANGE_PUBLIC_GET);
    expect(validateMessage(PublicExchangeRef, message)).toEqual({
      exchange_id: EX,
      client_secret: CS,
    });

    const missing = await http.call('GET', `/v1/public/exchanges/${EX}`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
    expect(sent(EXCHANGE_PUBLIC_GET)).toHaveLength(1);
  });
});

describeWithPostgres('gateway: the public exchange routes, rate limited', () => {
  let gw: Gateway;
  let http: HttpClient;

  beforeAll(async () => {
    gw = await startGateway({ IP_RATE_LIMIT_BURST: '2', IP_RATE_LIMIT_PER_SECOND: '1' });
    http = new HttpClient(gw.url);
  });

  afterAll(async () => {
    await gw?.close();
  });

  it('answers 429 rate_limited with Retry-After once the IP has spent its burst', async () => {
    const statuses: number[] = [];
    let limited: HttpResult | undefined;
    for (let i = 0; i < 3; i++) {
      // Refused as malformed: a request the limiter charges without reaching the exchange.
      const response = await http.call('POST', '/v1/public/exchange-quotes', { body: {} });
      statuses.push(response.status);
      if (response.status === 429) limited = response;
    }
    expect(statuses).toEqual([400, 400, 429]);
    expect(limited!.body.error.code).toBe('rate_limited');
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
