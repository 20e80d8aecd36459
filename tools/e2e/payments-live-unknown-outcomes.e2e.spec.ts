import { randomBytes } from 'node:crypto';
import { expectLedgerBalanced } from '@xaalis/ledger';
import { startInProcessService, type InProcessService } from './support/in-process-service';
import {
  requestsTo,
  setWaveIdentity,
  startLiveFakes,
  waveSessionCreations,
  type LiveFakes,
} from './support/live-providers';
import { merchantFactory, type TestMerchant } from './support/merchant';
import {
  allPaymentIds,
  createPayment,
  eventually,
  eventuallyStatus,
  expectBalance,
  expectError,
  getPayment,
  newPayment,
  type PaymentObject,
} from './support/payments';

/** Short, so a held answer is a timeout quickly; the fake answers everything else at once. */
const PROVIDER_TIMEOUT_MS = 300;
const MINUTE = 60_000;

/**
 * When Wave's answer to a session creation is unknown (a timeout, 429, 5xx) the payment is
 * `processing`, never `failed`, and the service reconciles: it looks the session up by our payment
 * id (Wave's `client_reference`) until Wave answers. A definitive refusal is a 503 and nothing is
 * created. The tests run in this order on purpose: each moves the clock, and none leaves a
 * failure queued at the fake or a reconciliation due for the next one.
 */
describe('live Wave payments when the answer to the session creation is unknown', () => {
  let fakes: LiveFakes;
  let service: InProcessService;
  const newMerchant = merchantFactory(() => service.http);
  const wave = () => fakes.wave;

  beforeAll(async () => {
    fakes = await startLiveFakes();
    service = await startInProcessService({
      ...fakes.env,
      PROVIDER_TIMEOUT_MS: String(PROVIDER_TIMEOUT_MS),
    });
  });
  afterAll(async () => {
    try {
      if (service) await expectLedgerBalanced(service.db.pool);
    } finally {
      await service?.close();
      await fakes?.close();
    }
  });

  async function waveMerchant(): Promise<TestMerchant> {
    const merchant = await newMerchant();
    await setWaveIdentity(merchant, `am-e2e-${randomBytes(6).toString('hex')}`);
    return merchant;
  }

  const searchPath = (paymentId: string) =>
    `/v1/checkout/sessions/search?client_reference=${paymentId}`;

  /** Waits until reconciliation has asked Wave about the payment `times` times by client reference. */
  async function expectSearched(paymentId: string, times: number): Promise<void> {
    const seen = await eventually(
      async () => requestsTo(wave().requests, 'GET', searchPath(paymentId)),
      (count) => count >= times,
    );
    expect(seen).toBe(times);
  }

  /** 201 processing with `wave`, pointing the customer at our hosted page: the unknown-outcome payment. */
  function expectUnknownOutcome(created: PaymentObject, amount: number): void {
    expect(created).toEqual(
      expect.objectContaining({
        livemode: true,
        amount,
        status: 'processing',
        provider: 'wave',
        failure_reason: null,
        provider_transaction_id: null,
        next_action: { type: 'redirect', url: created.checkout_url },
      }),
    );
  }

  it('a timeout: 201 processing with the hosted page; reconciliation finds the session Wave did create, and next_action becomes its launch URL', async () => {
    const merchant = await waveMerchant();
    wave().failNext('timeout', 1, 'POST');

    const created = await newPayment(service.http, merchant.liveKey, {
      amount: 7_000,
      provider: 'wave',
    });

    expectUnknownOutcome(created, 7_000);
    // Wave acted; we never heard.
    const session = wave().session(created.id);
    expect({
      creations: waveSessionCreations(wave(), created.id).length,
      status: session.checkout_status,
    }).toEqual({
      creations: 1,
      status: 'open',
    });

    service.clock.advance(3_000);

    const found = await eventually(
      () => getPayment(service.http, merchant.liveKey, created.id),
      (payment) => payment.next_action.url !== created.checkout_url,
    );
    expect(found).toEqual({
      ...created,
      next_action: { type: 'redirect', url: session.wave_launch_url },
    });
    expect(requestsTo(wave().requests, 'GET', searchPath(created.id))).toBe(1);
  });

  it('reconciliation asks again after an unknown answer, and settles a payment paid at Wave without any webhook', async () => {
    const merchant = await waveMerchant();
    // The creation times out, then the first look-up gets a 500. Each failure is scoped to its
    // method: other payments' reconciliation (GETs) runs in the background of this file.
    wave().failNext('timeout', 1, 'POST');
    wave().failNext(500, 1, 'GET');
    const created = await newPayment(service.http, merchant.liveKey, {
      amount: 4_000,
      provider: 'wave',
    });
    expectUnknownOutcome(created, 4_000);
    await expectSearched(created.id, 1);
    const session = wave().pay(created.id);

    // Past the first backoff (2 s) the next look-up finds the paid session. The worker records
    // that backoff on its own time, so the clock moves a second per poll rather than once.
    const succeeded = await eventually(
      async () => {
        service.clock.advance(1_000);
        return getPayment(service.http, merchant.liveKey, created.id);
      },
      (payment) => payment.status === 'succeeded',
    );
    expect(succeeded).toEqual({
      ...created,
      status: 'succeeded',
      fee: 40,
      net: 3_960,
      provider_transaction_id: session.transaction_id,
      succeeded_at: succeeded.succeeded_at,
    });
    expect(requestsTo(wave().requests, 'GET', searchPath(created.id))).toBe(2);
    await expectBalance(service.http, merchant.liveKey, { available: 3_960, pending: 0 });
  });

  it('after reconciliation found the session it keeps asking: paid at Wave without a webhook, the payment succeeds', async () => {
    const merchant = await waveMerchant();
    wave().failNext('timeout', 1, 'POST');
    const found = await newPayment(service.http, merchant.liveKey, {
      amount: 6_000,
      provider: 'wave',
    });
    const session = wave().session(found.id);
    await eventually(
      () => getPayment(service.http, merchant.liveKey, found.id),
      (payment) => payment.next_action.url === session.wave_launch_url,
    );
    wave().pay(found.id);

    // No webhook: the reconciliation job (backoff doubling, at most 5 minutes) asks Wave again.
    // The worker reschedules on its own time, so the clock moves a minute per poll.
    const succeeded = await eventually(
      async () => {
        service.clock.advance(MINUTE);
        return getPayment(service.http, merchant.liveKey, found.id);
      },
      (payment) => payment.status === 'succeeded',
    );
    expect(succeeded).toMatchObject({
      status: 'succeeded',
      fee: 60,
      net: 5_940,
      provider_transaction_id: session.transaction_id,
    });
    expect(
      requestsTo(wave().requests, 'GET', `/v1/checkout/sessions/${session.id}`),
    ).toBeGreaterThanOrEqual(1);
    await expectBalance(service.http, merchant.liveKey, { available: 5_940, pending: 0 });
  });

  it('a 500: 201 processing (never failed); reconciliation asks by client reference, and unpaid at 30 minutes it expires', async () => {
    const merchant = await waveMerchant();
    wave().failNext(500, 1, 'POST');

    const created = await newPayment(service.http, merchant.liveKey, {
      amount: 9_000,
      provider: 'wave',
    });

    expectUnknownOutcome(created, 9_000);
    expect(waveSessionCreations(wave(), created.id)).toHaveLength(1);
    // Nothing was created at Wave: the look-up finds nothing and the payment stays processing.
    await expectSearched(created.id, 1);
    expect(await getPayment(service.http, merchant.liveKey, created.id)).toEqual(created);

    service.clock.set(new Date(created.expires_at));

    const expired = await eventuallyStatus(service.http, merchant.liveKey, created.id, 'expired');
    expect(expired).toEqual({ ...created, status: 'expired' });
  });

  it('a 429: 201 processing (never failed), with the hosted page as next_action', async () => {
    const merchant = await waveMerchant();
    wave().failNext(429, 1, 'POST');

    const created = await newPayment(service.http, merchant.liveKey, {
      amount: 2_500,
      provider: 'wave',
    });

    expectUnknownOutcome(created, 2_500);
    expect(waveSessionCreations(wave(), created.id)).toHaveLength(1);
    await expectSearched(created.id, 1);
    expect(await getPayment(service.http, merchant.liveKey, created.id)).toEqual(created);
  });

  it('a definitive 400 from Wave: 503 unavailable and no payment is created', async () => {
    const merchant = await waveMerchant();
    const kept = await newPayment(service.http, merchant.liveKey, { amount: 1_000 });
    const creationsBefore = requestsTo(wave().requests, 'POST', '/v1/checkout/sessions');
    wave().failNext(400, 1, 'POST');

    const refused = await createPayment(service.http, merchant.liveKey, {
      amount: 5_000,
      provider: 'wave',
    });

    expectError(refused, 503, 'unavailable');
    const asked = wave().requests.filter(
      (request) => request.method === 'POST' && request.path === '/v1/checkout/sessions',
    );
    expect(asked).toHaveLength(creationsBefore + 1);
    // Wave was asked for the payment id the service had drawn; no payment of that id exists.
    const drawnId = (asked.at(-1)?.body as { client_reference: string }).client_reference;
    expect(drawnId).toMatch(/^pay_/);
    expectError(
      await service.http.get(`/v1/payments/${drawnId}`, { bearer: merchant.liveKey }),
      404,
      'not_found',
    );
    expect(await allPaymentIds(service.http, merchant.liveKey)).toEqual([kept.id]);
  });
});
