import { PAYOUT_EVENT_TYPES, payoutStream, type PayoutEventType } from './payout.events';
import {
  at,
  newProcessingPayout,
  newSucceededPayout,
  payoutCreated,
  payoutFailed,
  payoutOf,
  payoutReversed,
  referenceRecorded,
  stateOf,
  WAVE_REFERENCE,
} from './payout.fixtures';
import { debit } from './payout.state';

describe('payout state: one case per event type', () => {
  it('lists every event type once; streams are payout-<id>', () => {
    const ALL: Record<PayoutEventType, true> = {
      PayoutCreated: true,
      PayoutProcessing: true,
      PayoutProviderReferenceRecorded: true,
      PayoutSucceeded: true,
      PayoutFailed: true,
      PayoutReversed: true,
    };
    expect([...PAYOUT_EVENT_TYPES].sort()).toEqual(Object.keys(ALL).sort());
    expect(payoutStream('po_1')).toBe('payout-po_1');
  });

  it('PayoutCreated: pending, what it holds is amount + fee', () => {
    const payout = payoutOf([payoutCreated()]);
    expect(payout).toMatchObject({ status: 'pending', providerReference: null, reversed: false });
    expect(debit(payout)).toBe(10_100);
  });

  it('PayoutProcessing, PayoutProviderReferenceRecorded, PayoutSucceeded', () => {
    expect(payoutOf(newProcessingPayout())).toMatchObject({
      status: 'processing',
      updatedAt: at(3).toISOString(),
    });
    expect(payoutOf([...newProcessingPayout(), referenceRecorded()])).toMatchObject({
      status: 'processing',
      providerReference: WAVE_REFERENCE,
    });
    expect(payoutOf(newSucceededPayout())).toMatchObject({
      status: 'succeeded',
      updatedAt: at(5).toISOString(),
    });
  });

  it('PayoutFailed and PayoutReversed: failed, with the reason', () => {
    expect(payoutOf([...newProcessingPayout(), payoutFailed('insufficient_funds')])).toMatchObject({
      status: 'failed',
      failureReason: 'insufficient_funds',
      reversed: false,
    });
    expect(payoutOf([...newSucceededPayout(), payoutReversed()])).toMatchObject({
      status: 'failed',
      failureReason: 'reversed',
      reversed: true,
    });
  });

  it('events before the creation change nothing', () => {
    expect(stateOf([payoutFailed()])).toEqual({ status: 'absent' });
  });
});
