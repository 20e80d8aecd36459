import { PAYOUT_ID } from './agent-wallet.fixtures';
import {
  at,
  directPayoutCreated,
  EXCHANGE_REFERENCE,
  newFailedPayout,
  newPendingPayout,
  newSucceededPayout,
  payoutCreated,
  payoutOf,
  payoutReversed,
} from './payout.fixtures';
import { toPayoutObject } from './payout.view';

describe('toPayoutObject (spec 2.5, CONTRACT 5)', () => {
  it('shows a pending payout with every field of GET /v1/payouts/{id}', () => {
    expect(toPayoutObject(payoutOf(newPendingPayout()))).toEqual({
      id: PAYOUT_ID,
      object: 'payout',
      agent_wallet_id: 'aw_01JD0000000000000000000000',
      agent_key_id: 'agk_01JD0000000000000000000000',
      policy_version: 1,
      livemode: false,
      amount: 10_000,
      fee: 100,
      currency: 'XOF',
      provider: 'wave',
      status: 'pending',
      recipient: { phone: '+221771234567', name: 'Fatou Sarr' },
      client_reference: 'invoice-2026-11-0042',
      failure_reason: null,
      created_at: '2026-11-22T10:02:00.000Z',
      updated_at: '2026-11-22T10:02:00.000Z',
    });
  });

  it('a payout made without a wallet shows no wallet, no key and no policy version', () => {
    expect(toPayoutObject(payoutOf([directPayoutCreated()]))).toMatchObject({
      id: PAYOUT_ID,
      agent_wallet_id: null,
      agent_key_id: null,
      policy_version: null,
      amount: 10_000,
      fee: 100,
      client_reference: EXCHANGE_REFERENCE,
      status: 'pending',
    });
  });

  it('a live payout is livemode', () => {
    expect(toPayoutObject(payoutOf([payoutCreated({ mode: 'live' })])).livemode).toBe(true);
  });

  it('failed with its reason; reversed as failed "reversed"', () => {
    expect(toPayoutObject(payoutOf(newFailedPayout()))).toMatchObject({
      status: 'failed',
      failure_reason: 'recipient_refused',
    });
    expect(toPayoutObject(payoutOf([...newSucceededPayout(), payoutReversed()]))).toMatchObject({
      status: 'failed',
      failure_reason: 'reversed',
      updated_at: at(60).toISOString(),
    });
  });

  it('shows no internal field (provider reference, idempotency key)', () => {
    const shown = Object.keys(toPayoutObject(payoutOf(newSucceededPayout())));
    expect(shown).not.toContain('provider_reference');
    expect(shown).not.toContain('providerIdempotencyKey');
  });
});
