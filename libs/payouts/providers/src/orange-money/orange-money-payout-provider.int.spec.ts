import type { OrangeMoneyConfig } from '@xaalis/config';
import { DomainError, FixedClock, newId } from '@xaalis/kernel';
import {
  startFakeOrangeMoney,
  warmUpFetch,
  type FakeOrangeMoney,
} from '@xaalis/provider-http/testing';
import type { SendPayout } from '../payout-provider';
import { OrangeMoneyPayoutProvider } from './orange-money-payout-provider';

const CREDENTIALS = {
  clientId: 'om-client-id',
  clientSecret: 'om-client-secret',
  merchantCode: '621513',
  callbackApiKey: 'om-callback-api-key',
};
/**
 * Ordinary calls get all the time they need; only the timeout cases use the short one, against a
 * fake that never answers, so no assertion here depends on how fast anything runs.
 */
const TIMEOUT_MS = 5_000;
const SHORT_TIMEOUT_MS = 200;

let om: FakeOrangeMoney;
let clock: FixedClock;

beforeAll(warmUpFetch);

beforeEach(async () => {
  om = await startFakeOrangeMoney(CREDENTIALS);
  clock = new FixedClock(new Date('2026-11-22T10:00:00.000Z'));
});

afterEach(() => om.close());

const provider = (overrides: Partial<OrangeMoneyConfig> = {}, timeoutMs = TIMEOUT_MS) =>
  new OrangeMoneyPayoutProvider(
    { apiBaseUrl: om.url, ...CREDENTIALS, ...overrides },
    { timeoutMs, clock },
  );

const impatient = () => provider({}, SHORT_TIMEOUT_MS);

const newPayout = (overrides: Partial<SendPayout> = {}): SendPayout => {
  const payoutId = newId('payout');
  return {
    payoutId,
    idempotencyKey: payoutId,
    amount: 25_000,
    recipientPhone: '+221771234567',
    recipientName: 'Awa Diop',
    ...overrides,
  };
};

const byReference = (input: SendPayout) => ({ payoutId: input.payoutId, providerReference: null });
const cashInPosts = () => om.requests.filter((r) => r.path === '/api/eWallet/v1/cashins');
const transactionIdOf = (input: SendPayout) =>
  om.cashIns().find((t) => t.reference === input.payoutId)?.transactionId;

describe('OrangeMoneyPayoutProvider.send', () => {
  it('searches the reference first, then makes one cash-in and answers its transaction id', async () => {
    const input = newPayout();
    const result = await provider().send(input);

    expect(om.cashIns()).toHaveLength(1);
    expect(result).toEqual({ status: 'succeeded', providerReference: transactionIdOf(input) });
    expect(om.requests.filter((r) => r.path.startsWith('/api/')).map((r) => r.path)).toEqual([
      `/api/eWallet/v1/transactions?reference=${input.payoutId}`,
      '/api/eWallet/v1/cashins',
    ]);
  });

  it('sends the cash-in Sonatel is asked for: merchant code, national MSISDN, integer XOF, reference', async () => {
    const input = newPayout();
    await provider().send(input);

    const request = cashInPosts()[0];
    expect(request?.headers['authorization']).toMatch(/^Bearer om_/);
    expect(request?.body).toEqual({
      partner: { idType: 'CODE', id: CREDENTIALS.merchantCode },
      customer: { idType: 'MSISDN', id: '771234567' },
      amount: { value: 25_000, unit: 'XOF' },
      reference: input.payoutId,
      receiveNotification: false,
    });
  });

  it.each([
    ['PENDING', 'processing'],
    ['INITIATED', 'processing'],
    ['FAILED', 'failed'],
    ['REJECTED', 'failed'],
  ])('maps a cash-in answered %s to %s', async (status, expected) => {
    om.scriptCashIns({ kind: 'created', status });

    expect(await provider().send(newPayout())).toMatchObject({ status: expected });
  });

  it('fails the payout with the code Sonatel refused it with, and sends nothing', async () => {
    om.scriptCashIns({ kind: 'refused', code: 'insufficient-funds' });

    const result = await provider().send(newPayout());

    expect(result).toEqual({
      status: 'failed',
      providerReference: null,
      reason: 'insufficient-funds',
    });
    expect(om.cashIns()).toHaveLength(0);
  });

  it('a timeout is unknown; the lookup then finds the cash-in made once, succeeded', async () => {
    const input = newPayout();
    om.scriptCashIns({ kind: 'timeout' });

    const sent = await impatient().send(input);
    const found = await provider().lookup(byReference(input));

    expect(sent).toEqual({ status: 'unknown', reason: 'timeout' });
    expect(om.cashIns()).toHaveLength(1);
    expect(found).toEqual({ status: 'succeeded', providerReference: transactionIdOf(input) });
  });

  it('a 5xx is unknown; the lookup then finds the cash-in Sonatel failed', async () => {
    const input = newPayout();
    om.scriptCashIns({ kind: 'server_error', recorded: true });

    const sent = await provider().send(input);
    om.changeCashIn(input.payoutId, 'FAILED');
    const found = await provider().lookup(byReference(input));

    expect(sent).toMatchObject({ status: 'unknown' });
    expect(found).toEqual({
      status: 'failed',
      providerReference: transactionIdOf(input),
      reason: 'Orange Money cash-in FAILED',
    });
  });

  it('a 5xx before anything was sent leaves nothing to find, and a new send makes the cash-in', async () => {
    const input = newPayout();
    om.scriptCashIns({ kind: 'server_error', recorded: false });

    expect(await provider().send(input)).toMatchObject({ status: 'unknown' });
    expect(await provider().lookup(byReference(input))).toEqual({ status: 'not_found' });
    expect(await provider().send(input)).toMatchObject({ status: 'succeeded' });
    expect(om.cashIns()).toHaveLength(1);
  });

  it('a repeated send of one payout makes one cash-in: it finds the first and posts nothing', async () => {
    const input = newPayout();
    om.scriptCashIns({ kind: 'timeout' });

    const first = await impatient().send(input);
    const again = await provider().send(input);

    expect(first).toMatchObject({ status: 'unknown' });
    expect(again).toEqual({ status: 'succeeded', providerReference: transactionIdOf(input) });
    expect(om.cashIns()).toHaveLength(1);
    expect(cashInPosts()).toHaveLength(1);
  });

  it('posts nothing when the search cannot answer', async () => {
    om.failNext(500);

    expect(await provider().send(newPayout())).toMatchObject({ status: 'unknown' });
    expect(cashInPosts()).toHaveLength(0);
  });

  it('is unknown, never failed, when the token is refused', async () => {
    const result = await provider({ clientSecret: 'wrong' }).send(newPayout());

    expect(result).toMatchObject({ status: 'unknown' });
    expect(cashInPosts()).toHaveLength(0);
  });

  it('refuses a number outside Senegal before calling Sonatel', async () => {
    const error = await provider()
      .send(newPayout({ recipientPhone: '+33612345678' }))
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('validation_error');
    expect(om.requests).toHaveLength(0);
  });
});

describe('OrangeMoneyPayoutProvider.lookup', () => {
  it('sees a later status change of the cash-in', async () => {
    const input = newPayout();
    om.scriptCashIns({ kind: 'created', status: 'PENDING' });
    const sent = await provider().send(input);
    om.changeCashIn(input.payoutId, 'SUCCESS');

    const found = await provider().lookup({
      payoutId: input.payoutId,
      providerReference: transactionIdOf(input) ?? null,
    });

    expect(sent).toEqual({ status: 'processing', providerReference: transactionIdOf(input) });
    expect(found).toEqual({ status: 'succeeded', providerReference: transactionIdOf(input) });
  });

  it('finds the cash-in by its reference when the transaction id is unknown', async () => {
    const input = newPayout();
    await provider().send(input);
    await provider().send(newPayout());

    expect(await provider().lookup(byReference(input))).toEqual({
      status: 'succeeded',
      providerReference: transactionIdOf(input),
    });
  });

  it('answers not_found for a payout never sent', async () => {
    expect(await provider().lookup(byReference(newPayout()))).toEqual({ status: 'not_found' });
  });

  it('answers unknown when Sonatel does not answer in time', async () => {
    om.failNext('timeout');

    expect(await impatient().lookup(byReference(newPayout()))).toEqual({
      status: 'unknown',
      reason: 'timeout',
    });
  });
});
