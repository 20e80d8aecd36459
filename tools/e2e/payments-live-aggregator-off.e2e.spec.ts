import { expectLedgerBalanced } from '@xaalis/ledger';
import { startInProcessService, type InProcessService } from './support/in-process-service';
import { startLiveFakes, waveSessionCreations, type LiveFakes } from './support/live-providers';
import { merchantFactory } from './support/merchant';
import { clientSecretOf, newPayment } from './support/payments';

/** CONTRACT 10: with AGGREGATOR_MODE=false live `wave` payments need no aggregated identity. */
describe('live Wave payments with AGGREGATOR_MODE=false', () => {
  let fakes: LiveFakes;
  let service: InProcessService;
  const newMerchant = merchantFactory(() => service.http);

  beforeAll(async () => {
    fakes = await startLiveFakes();
    service = await startInProcessService({ ...fakes.env, AGGREGATOR_MODE: 'false' });
  });
  afterAll(async () => {
    try {
      if (service) await expectLedgerBalanced(service.db.pool);
    } finally {
      await service?.close();
      await fakes?.close();
    }
  });

  it('a live create with provider wave needs no identity: 201 processing, Wave asked without aggregated_merchant_id', async () => {
    const merchant = await newMerchant();

    const created = await newPayment(service.http, merchant.liveKey, {
      amount: 10_000,
      provider: 'wave',
    });

    const session = fakes.wave.session(created.id);
    expect(created).toEqual(
      expect.objectContaining({
        livemode: true,
        status: 'processing',
        provider: 'wave',
        next_action: { type: 'redirect', url: session.wave_launch_url },
      }),
    );
    expect(waveSessionCreations(fakes.wave, created.id).map((request) => request.body)).toEqual([
      {
        amount: '10000',
        currency: 'XOF',
        client_reference: created.id,
        success_url: created.checkout_url,
        error_url: created.checkout_url,
      },
    ]);
    expect(session.aggregated_merchant_id).toBeNull();
  });

  it('the hosted page offers wave on a live payment without provider, and the pay step redirects to Wave', async () => {
    const merchant = await newMerchant();
    const created = await newPayment(service.http, merchant.liveKey, { amount: 2_000 });
    const cs = encodeURIComponent(clientSecretOf(created));

    const view = await service.http.get(`/v1/public/payments/${created.id}?cs=${cs}`);
    expect(view.body.available_providers).toEqual(['wave', 'orange_money']);
    const paid = await service.http.post(`/v1/public/payments/${created.id}/pay?cs=${cs}`, {
      body: { provider: 'wave' },
    });

    expect({ status: paid.status, body: paid.body }).toEqual({
      status: 200,
      body: expect.objectContaining({
        status: 'processing',
        provider: 'wave',
        next_action: { type: 'redirect', url: fakes.wave.session(created.id).wave_launch_url },
      }),
    });
  });
});
