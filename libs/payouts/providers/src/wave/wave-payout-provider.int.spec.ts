import type { WaveConfig } from '@xaalis/config';
import { newId } from '@xaalis/kernel';
import { startFakeWave, warmUpFetch, type FakeWave } from '@xaalis/provider-http/testing';
import type { SendPayout } from '../payout-provider';
import { WavePayoutProvider } from './wave-payout-provider';

const API_KEY = 'wave_sn_prod_int_test_key';
/**
 * Ordinary calls get all the time they need; only the timeout cases use the short one, against a
 * fake that never answers, so no assertion here depends on how fast anything runs.
 */
const TIMEOUT_MS = 5_000;
const SHORT_TIMEOUT_MS = 200;

let wave: FakeWave;

beforeAll(warmUpFetch);

beforeEach(async () => {
  wave = await startFakeWave({ apiKey: API_KEY, webhookSecret: 'wave_sn_WHS_int_test_secret' });
});

afterEach(() => wave.close());

const provider = (config: Partial<WaveConfig> = {}, timeoutMs = TIMEOUT_MS) =>
  new WavePayoutProvider(
    { apiBaseUrl: wave.url, apiKey: API_KEY, webhookSecret: undefined, ...config },
    { timeoutMs },
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

describe('WavePayoutProvider.send', () => {
  it('makes one payout and answers its id when Wave says succeeded', async () => {
    const input = newPayout();
    const result = await provider().send(input);

    expect(wave.payouts).toHaveLength(1);
    expect(result).toEqual({ status: 'succeeded', providerReference: wave.payouts[0]?.id });
  });

  it('sends the request Wave asks for: amount as an integer string, bearer key, idempotency key', async () => {
    const input = newPayout();
    await provider().send(input);

    const request = wave.requests[0];
    expect(request?.path).toBe('/v1/payout');
    expect(request?.headers['authorization']).toBe(`Bearer ${API_KEY}`);
    expect(request?.headers['idempotency-key']).toBe(input.idempotencyKey);
    expect(request?.body).toEqual({
      currency: 'XOF',
      receive_amount: '25000',
      mobile: '+221771234567',
      name: 'Awa Diop',
      client_reference: input.payoutId,
    });
  });

  it('answers processing while Wave has not settled the payout', async () => {
    wave.scriptPayouts({ kind: 'created', status: 'processing' });

    const result = await provider().send(newPayout());

    expect(result).toEqual({ status: 'processing', providerReference: wave.payouts[0]?.id });
  });

  it('fails the payout with the code Wave refused it with, and sends nothing', async () => {
    wave.scriptPayouts({ kind: 'refused', code: 'insufficient-funds' });

    const result = await provider().send(newPayout());

    expect(result).toEqual({
      status: 'failed',
      providerReference: null,
      reason: 'insufficient-funds',
    });
    expect(wave.payouts).toHaveLength(0);
  });

  it('fails the payout Wave made and reported failed, with its error code', async () => {
    wave.scriptPayouts({ kind: 'created', status: 'failed', errorCode: 'invalid-wallet' });

    const result = await provider().send(newPayout());

    expect(result).toEqual({
      status: 'failed',
      providerReference: wave.payouts[0]?.id,
      reason: 'invalid-wallet',
    });
  });

  it.each([
    ['408', 408],
    ['429', 429],
  ])('answers unknown, never failed, on a %s', async (_case, httpStatus) => {
    wave.scriptPayouts({ kind: 'refused', code: 'try-again-later', httpStatus });

    expect(await provider().send(newPayout())).toMatchObject({ status: 'unknown' });
  });

  it('a timeout is unknown; the lookup then finds the payout made once, succeeded', async () => {
    const input = newPayout();
    wave.scriptPayouts({ kind: 'timeout' });

    const sent = await impatient().send(input);
    const found = await provider().lookup(byReference(input));

    expect(sent).toEqual({ status: 'unknown', reason: 'timeout' });
    expect(wave.payouts).toHaveLength(1);
    expect(found).toEqual({ status: 'succeeded', providerReference: wave.payouts[0]?.id });
  });

  it('a 5xx is unknown; the lookup then finds the payout Wave failed', async () => {
    const input = newPayout();
    wave.scriptPayouts({ kind: 'server_error', recorded: true });

    const sent = await provider().send(input);
    wave.changePayout(input.payoutId, 'failed', 'recipient-limit-exceeded');
    const found = await provider().lookup(byReference(input));

    expect(sent).toEqual({
      status: 'unknown',
      reason: 'wave answered 500 (internal-server-error)',
    });
    expect(found).toEqual({
      status: 'failed',
      providerReference: wave.payouts[0]?.id,
      reason: 'recipient-limit-exceeded',
    });
  });

  it('a 5xx before anything was sent leaves nothing to find', async () => {
    const input = newPayout();
    wave.scriptPayouts({ kind: 'server_error', recorded: false });

    expect(await provider().send(input)).toMatchObject({ status: 'unknown' });
    expect(await provider().lookup(byReference(input))).toEqual({ status: 'not_found' });
    expect(wave.payouts).toHaveLength(0);
  });

  it('a repeated send with the same idempotency key makes one payout and answers it again', async () => {
    const input = newPayout();
    wave.scriptPayouts({ kind: 'timeout' });

    const first = await impatient().send(input);
    const again = await provider().send(input);
    const thrice = await provider().send(input);

    expect(first).toMatchObject({ status: 'unknown' });
    expect(wave.payouts).toHaveLength(1);
    expect(again).toEqual({ status: 'succeeded', providerReference: wave.payouts[0]?.id });
    expect(thrice).toEqual(again);
  });

  it('the same key with another body is unknown, not failed: Wave holds a payout under it', async () => {
    const input = newPayout();
    await provider().send(input);

    const result = await provider().send({ ...input, amount: 30_000 });

    expect(result).toEqual({
      status: 'unknown',
      reason: 'wave answered 409 (idempotency-mismatch)',
    });
    expect(wave.payouts).toHaveLength(1);
  });
});

describe('WavePayoutProvider.lookup', () => {
  it('reads the payout by its id when the provider reference is known', async () => {
    const input = newPayout();
    wave.scriptPayouts({ kind: 'created', status: 'processing' });
    await provider().send(input);
    const id = wave.payout(input.payoutId).id;
    wave.changePayout(id, 'succeeded');

    const result = await provider().lookup({ payoutId: input.payoutId, providerReference: id });

    expect(result).toEqual({ status: 'succeeded', providerReference: id });
    expect(wave.requests.at(-1)?.path).toBe(`/v1/payout/${id}`);
  });

  it('sees a reversal of a payout Wave had reported succeeded', async () => {
    const input = newPayout();
    await provider().send(input);
    const id = wave.payout(input.payoutId).id;
    wave.changePayout(id, 'reversed');

    expect(await provider().lookup({ payoutId: input.payoutId, providerReference: id })).toEqual({
      status: 'reversed',
      providerReference: id,
    });
  });

  it('searches by client reference when the provider reference is unknown', async () => {
    const input = newPayout();
    await provider().send(input);
    await provider().send(newPayout());

    const result = await provider().lookup(byReference(input));

    expect(result).toEqual({
      status: 'succeeded',
      providerReference: wave.payout(input.payoutId).id,
    });
    expect(wave.requests.at(-1)?.path).toBe(
      `/v1/payouts/search?client_reference=${input.payoutId}`,
    );
  });

  it('answers not_found for a payout never sent', async () => {
    expect(await provider().lookup(byReference(newPayout()))).toEqual({ status: 'not_found' });
    expect(
      await provider().lookup({ payoutId: newId('payout'), providerReference: 'pt-unknown' }),
    ).toEqual({ status: 'not_found' });
  });

  it('answers unknown when the payout found belongs to another payout', async () => {
    const input = newPayout();
    await provider().send(input);
    const id = wave.payout(input.payoutId).id;

    expect(
      await provider().lookup({ payoutId: newId('payout'), providerReference: id }),
    ).toMatchObject({ status: 'unknown' });
  });

  it('answers unknown when Wave does not answer in time', async () => {
    wave.failNext('timeout');

    expect(await impatient().lookup(byReference(newPayout()))).toEqual({
      status: 'unknown',
      reason: 'timeout',
    });
  });
});
