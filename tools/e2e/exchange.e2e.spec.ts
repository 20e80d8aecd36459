import type { Browser } from 'playwright-core';
import {
  describeWithChromium,
  launchChromium,
  phonePage,
} from '../../apps/gateway/src/pages/testing/describe-with-chromium';
import {
  exchangeReaching,
  followExchange,
  newExchange,
  payExchange,
  paymentIdOf,
  payoutsOf,
  PHONE,
  quoteBody,
  REFUSED_PHONE,
  refundsOf,
  requestExchange,
  requestQuote,
  type ExchangeObject,
} from './support/exchange';
import { BalanceReader } from '@xaalis/ledger';
import { idempotencyKey } from './support/fixtures';
import {
  closeWithLedgerBalanced,
  startInProcessService,
  type InProcessService,
} from './support/in-process-service';
import { eventually, expectError, PAYMENT_LIFETIME_MS } from './support/payments';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const QUOTE_LIFETIME_MS = 10 * 60_000;
/** Moves the service's clock past a sandbox settling (SANDBOX_SETTLE_MS, 2 s by default). */
const SETTLE_STEP_MS = 2_500;

/**
 * The public test-mode exchange (spec 2.9, 4.5, CONTRACT 8, issue 21) through the six apps in one
 * process: quotes and their refusals, the one-time code, the single use of a quote, the flow to
 * `completed` paid in Chromium on the checkout page, a refused payout refunded in full, an unpaid
 * exchange expiring.
 */
let service: InProcessService;
const http = () => service.http;
const settle = () => service.clock.advance(SETTLE_STEP_MS);

beforeAll(async () => {
  service = await startInProcessService();
});
afterAll(() => closeWithLedgerBalanced(service));

/** A fresh phone per test, so the per-phone Dakar-day limit of one test leaves the others alone. */
let phoneNumber = 0;
const freshPhone = () => `+22177${String(1_000_000 + (phoneNumber += 1)).slice(-7)}`;

describe('quotes (CONTRACT 8)', () => {
  it('quotes the fee (300 bps by default) and what the phone receives, for 10 minutes', async () => {
    const quoted = await requestQuote(http(), { send_amount: 10_000, phone: freshPhone() });
    expect(quoted.status).toBe(201);
    expect(quoted.body).toEqual({
      object: 'exchange_quote',
      id: expect.stringMatching(/^exq_[0-9A-Za-z]{20,}$/),
      quote: expect.any(String),
      from: 'wave',
      to: 'orange_money',
      send_amount: 10_000,
      fee: 300,
      receive_amount: 9_700,
      expires_at: new Date(service.clock.now().getTime() + QUOTE_LIFETIME_MS).toISOString(),
    });
    expect(quoted.body.quote.length).toBeGreaterThanOrEqual(40);
  });

  it('refuses bad terms field by field, from = to, and amounts outside 500 to 1,000,000', async () => {
    for (const [overrides, field] of [
      [{ from: 'mock' }, 'from'],
      [{ to: 'paypal' }, 'to'],
      [{ to: 'wave' }, 'to'],
      [{ send_amount: '10000' }, 'send_amount'],
      [{ send_amount: 1000.5 }, 'send_amount'],
      [{ phone: '+221331234567' }, 'phone'],
    ] as const) {
      expectError(await requestQuote(http(), overrides), 400, 'validation_error', [field]);
    }
    for (const send_amount of [499, 1_000_001]) {
      const refused = await requestQuote(http(), { send_amount });
      expectError(refused, 422, 'limit_exceeded');
      expect(refused.body.error.details).toEqual({ min: 500, max: 1_000_000 });
    }
  });
});

describe('creating an exchange', () => {
  it('answers spec 2.9 with the checkout and its cs; the customer follows it with cs', async () => {
    const quoted = await requestQuote(http(), { phone: freshPhone() });
    const created = await requestExchange(http(), quoted.body.quote);
    expect(created.status).toBe(201);
    const exchange = created.body;
    expect(exchange).toEqual({
      object: 'exchange',
      id: expect.stringMatching(/^ex_[0-9A-Za-z]{20,}$/),
      status: 'awaiting_payment',
      from: 'wave',
      to: 'orange_money',
      send_amount: 10_000,
      fee: 300,
      receive_amount: 9_700,
      currency: 'XOF',
      livemode: false,
      created_at: expect.stringMatching(ISO),
      checkout_url: expect.stringMatching(/\/checkout\/pay_[0-9A-Za-z]{20,}\?cs=/),
      cs: expect.stringMatching(/^pay_[0-9A-Za-z]{20,}_secret_/),
    });
    expect(new URL(exchange.checkout_url).searchParams.get('cs')).toBe(exchange.cs);
    expect((await followExchange(http(), exchange)).body).toEqual(exchange);

    const other = await newExchange(http(), { phone: freshPhone() });
    for (const cs of [other.cs, 'nope', '']) {
      expectError(await followExchange(http(), exchange, cs), 404, 'not_found');
    }
    expectError(await http().get(`/v1/public/exchanges/ex_unknown?cs=x`), 404, 'not_found');
  });

  it('a missing idempotency key is a 400 and leaves the quote unspent', async () => {
    const quoted = await requestQuote(http(), { phone: freshPhone() });
    expectError(
      await requestExchange(http(), quoted.body.quote, '123456', null),
      400,
      'validation_error',
    );
    expect((await requestExchange(http(), quoted.body.quote)).status).toBe(201);
  });

  it('replays the same key byte for byte; another key on a used quote is invalid_quote', async () => {
    const quoted = await requestQuote(http(), { phone: freshPhone() });
    const key = idempotencyKey();
    const first = await requestExchange(http(), quoted.body.quote, '123456', key);
    const again = await requestExchange(http(), quoted.body.quote, '123456', key);
    expect(first.status).toBe(201);
    expect({ status: again.status, text: again.text }).toEqual({ status: 201, text: first.text });
    expectError(await requestExchange(http(), quoted.body.quote), 400, 'invalid_quote');
  });

  it('unknown, forged and expired quotes are invalid_quote', async () => {
    const quoted = await requestQuote(http(), { phone: freshPhone() });
    const token: string = quoted.body.quote;
    for (const forged of ['nope', `${token.slice(0, -1)}x`, `${quoted.body.id}_x`]) {
      expectError(await requestExchange(http(), forged), 400, 'invalid_quote');
    }
    service.clock.advance(QUOTE_LIFETIME_MS);
    expectError(await requestExchange(http(), token), 400, 'invalid_quote');
  });

  it('a wrong code is invalid_otp; the fifth spends the quote, even for the right code', async () => {
    const quoted = await requestQuote(http(), { phone: freshPhone() });
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      expectError(await requestExchange(http(), quoted.body.quote, '000000'), 400, 'invalid_otp');
    }
    expect((await requestExchange(http(), quoted.body.quote, '123456')).status).toBe(201);

    const spent = await requestQuote(http(), { phone: freshPhone() });
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      expectError(await requestExchange(http(), spent.body.quote, '654321'), 400, 'invalid_otp');
    }
    expectError(await requestExchange(http(), spent.body.quote, '123456'), 400, 'invalid_quote');
  });

  it('20 exchanges racing for one quote: exactly one is made', async () => {
    const quoted = await requestQuote(http(), { send_amount: 1_000_000, phone: freshPhone() });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => requestExchange(http(), quoted.body.quote)),
    );
    const made = answers.filter((answer) => answer.status === 201);
    expect(made).toHaveLength(1);
    for (const answer of answers.filter((a) => a.status !== 201)) {
      expectError(answer, 400, 'invalid_quote');
    }
  });

  it('2,000,000 per phone per Dakar day, over exchanges neither failed nor expired', async () => {
    const phone = freshPhone();
    await newExchange(http(), { send_amount: 1_000_000, phone });
    const second = await requestQuote(http(), { send_amount: 1_000_000, phone });
    // Quoted while there is room; the room is taken before this one's exchange.
    await newExchange(http(), { send_amount: 500, phone });
    const refused = await requestExchange(http(), second.body.quote);
    expectError(refused, 422, 'limit_exceeded');
    expect(refused.body.error.details).toEqual({ limit: 2_000_000, used: 1_000_500 });
    expectError(await requestQuote(http(), { send_amount: 999_501, phone }), 422, 'limit_exceeded');
    expect((await requestQuote(http(), { send_amount: 999_500, phone })).status).toBe(201);
  });
});

describe('the flow', () => {
  it('a refused payout (the magic phone) fails the exchange and refunds the customer in full, once', async () => {
    const exchange = await newExchange(http(), { phone: REFUSED_PHONE, send_amount: 20_000 });
    await payExchange(http(), service.url, exchange);
    const failed = await exchangeReaching(http(), exchange, 'failed', settle);
    expect(failed).toEqual({ ...exchange, status: 'failed' });

    const paymentId = paymentIdOf(exchange);
    const refunds = await eventuallyRows(() => refundsOf(service.db.pool, paymentId), 'succeeded');
    expect(refunds).toEqual([
      { id: expect.stringMatching(/^re_/), amount: 20_000, status: 'succeeded' },
    ]);
    expect(await eventuallyRows(() => payoutsOf(service.db.pool, exchange.id), 'failed')).toEqual([
      { id: expect.stringMatching(/^po_/), amount: 19_400, status: 'failed' },
    ]);
  });

  it("an unpaid exchange expires with its payment, and frees the phone's day", async () => {
    const phone = freshPhone();
    const exchange = await newExchange(http(), { send_amount: 1_000_000, phone });
    await newExchange(http(), { send_amount: 1_000_000, phone });
    expectError(await requestQuote(http(), { send_amount: 500, phone }), 422, 'limit_exceeded');

    service.clock.advance(PAYMENT_LIFETIME_MS + 1_000);
    const expired = await exchangeReaching(http(), exchange, 'expired', settle);
    expect(expired.status).toBe('expired');
    // Both expired: the day is free again once their reservations are released.
    const again = await eventually(
      () => requestQuote(http(), { send_amount: 1_000_000, phone }),
      (answer) => answer.status === 201,
    );
    expect(again.status).toBe(201);
  });
});

describeWithChromium('the flow paid in Chromium on the checkout page', (executablePath) => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium(executablePath);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('pays at phone width, sees what will be received and where, and the exchange completes', async () => {
    const exchange: ExchangeObject = await newExchange(http(), {
      from: 'orange_money',
      to: 'wave',
      send_amount: 25_000,
      phone: PHONE,
    });
    const { page, errors } = await phonePage(browser);
    await page.goto(exchange.checkout_url);
    const shown = (await page.textContent('body')) ?? '';
    expect(shown).toMatch(/25\s000/);
    expect(shown).toMatch(/24\s250\sFCFA versés sur Wave au \+221771234567/);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
      390,
    );
    // The payment is made with `from` named: the page goes on to that provider.
    await page.click('[data-action="continue"]');
    await page.waitForURL(/\/sandbox\/orange_money\/pay_/);
    await page.click('[data-action="approve"]');
    await page.waitForLoadState();
    expect(errors).toEqual([]);
    await page.close();

    const completed = await exchangeReaching(http(), exchange, 'completed', settle);
    expect(completed).toEqual({ ...exchange, status: 'completed' });
    // The payouts read model follows its stream a moment later.
    expect(
      await eventuallyRows(() => payoutsOf(service.db.pool, exchange.id), 'succeeded'),
    ).toEqual([{ id: expect.stringMatching(/^po_/), amount: 24_250, status: 'succeeded' }]);
  });
});

describe("the service's own account", () => {
  it('was opened on the first start and funded once by a 10,000,000 XOF test payment to itself', async () => {
    const { events } = await eventually(
      () => service.service.infra.store.readStream('exchange-account'),
      (read) => read.events.length === 2,
    );
    expect(events.map((event) => event.type)).toEqual([
      'ExchangeAccountOpened',
      'ExchangeAccountFunded',
    ]);
    const { merchantId, floatPaymentId } = events[0]!.data as Record<string, string>;
    const float = await eventually(
      async () =>
        (
          await service.db.pool.query<{ status: string; amount: number }>(
            `SELECT status, (state->>'amount')::int AS amount FROM payments WHERE id = $1`,
            [floatPaymentId],
          )
        ).rows,
      (rows) => rows[0]?.status === 'succeeded',
    );
    expect(float).toEqual([{ status: 'succeeded', amount: 10_000_000 }]);
    const balance = await new BalanceReader(service.service.infra.prisma).balance(
      merchantId!,
      'test',
    );
    expect(balance.available).toBeGreaterThan(9_000_000);
  });
});

describe('switched off, or a provider down', () => {
  it('EXCHANGE_ENABLED=false is 403 test_mode_disabled; a provider down is 503 unavailable', async () => {
    const off = await startInProcessService({ EXCHANGE_ENABLED: 'false' });
    try {
      expectError(await requestQuote(off.http), 403, 'test_mode_disabled');
      expectError(await requestExchange(off.http, 'exq_x_y'), 403, 'test_mode_disabled');
    } finally {
      await off.close();
    }
    const down = await startInProcessService({
      EXCHANGE_PROVIDERS_DOWN: 'orange_money',
      IP_RATE_LIMIT_BURST: '5',
      IP_RATE_LIMIT_PER_SECOND: '1',
    });
    try {
      expectError(
        await requestQuote(down.http, quoteBody({ to: 'orange_money' })),
        503,
        'unavailable',
      );
      expectError(
        await requestQuote(down.http, quoteBody({ from: 'orange_money', to: 'wave' })),
        503,
        'unavailable',
      );
      const answers = [];
      for (let i = 0; i < 6; i += 1) answers.push(await requestQuote(down.http));
      const limited = answers.find((answer) => answer.status === 429);
      expect(limited).toBeDefined();
      expectError(limited!, 429, 'rate_limited');
      expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } finally {
      await down.close();
    }
  });
});

/** Polls rows until every one has `status` (a refund settles on a job). */
const eventuallyRows = <T extends { status: string }>(read: () => Promise<T[]>, status: string) =>
  eventually(
    () => {
      settle();
      return read();
    },
    (rows) => rows.length > 0 && rows.every((row) => row.status === status),
    20_000,
  );
