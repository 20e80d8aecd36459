import { fold, type PayoutStatus } from '@xaalis/kernel';
import {
  AMOUNT,
  at,
  FEE,
  FEES,
  MERCHANT_ID,
  payoutAccepted,
  PAYOUT_ID,
  RECIPIENT_PHONE,
} from './agent-wallet.fixtures';
import type {
  CreateDirectPayout,
  CreatePayout,
  FailPayout,
  RecordProviderReference,
  ReversePayout,
  StartPayout,
  SucceedPayout,
} from './payout.commands';
import type {
  PayoutCreated,
  PayoutEvent,
  PayoutFailed,
  PayoutProcessing,
  PayoutProviderReferenceRecorded,
  PayoutReversed,
  PayoutSucceeded,
} from './payout.events';
import { evolve, exists, initialState, type Payout, type PayoutState } from './payout.state';

/** Fixture builders for the payout's given/when/then tests; ids and clock shared with the wallet's. */
export { at, T0 } from './agent-wallet.fixtures';

export const WAVE_REFERENCE = 'pt-1a2b3c4d';

export const payoutCreated = (overrides: Partial<PayoutCreated['data']> = {}): PayoutCreated => ({
  type: 'PayoutCreated',
  data: {
    payoutId: PAYOUT_ID,
    merchantId: MERCHANT_ID,
    mode: 'test',
    agentWalletId: 'aw_01JD0000000000000000000000',
    agentKeyId: 'agk_01JD0000000000000000000000',
    policyVersion: 1,
    provider: 'wave',
    amount: AMOUNT,
    fee: FEE,
    currency: 'XOF',
    recipient: { phone: RECIPIENT_PHONE, name: 'Fatou Sarr' },
    clientReference: 'invoice-2026-11-0042',
    providerIdempotencyKey: PAYOUT_ID,
    createdAt: at(2).toISOString(),
    ...overrides,
  },
});

/** A payout the exchange made from its own account: no wallet, no key, no policy. */
export const EXCHANGE_REFERENCE = 'exc_01JD0000000000000000000000';

export const directPayoutCreated = (
  overrides: Partial<PayoutCreated['data']> = {},
): PayoutCreated =>
  payoutCreated({
    agentWalletId: null,
    agentKeyId: null,
    policyVersion: null,
    clientReference: EXCHANGE_REFERENCE,
    ...overrides,
  });

export const payoutProcessing = (when = at(3)): PayoutProcessing => ({
  type: 'PayoutProcessing',
  data: { payoutId: PAYOUT_ID, processingAt: when.toISOString() },
});

export const referenceRecorded = (
  providerReference = WAVE_REFERENCE,
  when = at(4),
): PayoutProviderReferenceRecorded => ({
  type: 'PayoutProviderReferenceRecorded',
  data: { payoutId: PAYOUT_ID, providerReference, recordedAt: when.toISOString() },
});

export const payoutSucceeded = (when = at(5)): PayoutSucceeded => ({
  type: 'PayoutSucceeded',
  data: { payoutId: PAYOUT_ID, succeededAt: when.toISOString() },
});

export const payoutFailed = (reason = 'recipient_refused', when = at(5)): PayoutFailed => ({
  type: 'PayoutFailed',
  data: { payoutId: PAYOUT_ID, reason, failedAt: when.toISOString() },
});

export const payoutReversed = (when = at(60)): PayoutReversed => ({
  type: 'PayoutReversed',
  data: { payoutId: PAYOUT_ID, reversedAt: when.toISOString() },
});

// Histories: one per status.

export const newPendingPayout = (): PayoutEvent[] => [payoutCreated()];
export const newProcessingPayout = (): PayoutEvent[] => [payoutCreated(), payoutProcessing()];
export const newSucceededPayout = (): PayoutEvent[] => [
  ...newProcessingPayout(),
  payoutSucceeded(),
];
export const newFailedPayout = (): PayoutEvent[] => [...newProcessingPayout(), payoutFailed()];

export const HISTORY_BY_STATUS: Readonly<Record<PayoutStatus, () => PayoutEvent[]>> = {
  pending: newPendingPayout,
  processing: newProcessingPayout,
  succeeded: newSucceededPayout,
  failed: newFailedPayout,
};

export const stateOf = (events: readonly PayoutEvent[]): PayoutState =>
  fold(evolve, initialState(), events);

export function payoutOf(events: readonly PayoutEvent[]): Payout {
  const state = stateOf(events);
  if (!exists(state)) throw new Error('fixture: these events create no payout');
  return state;
}

// Commands.

export const createPayout = (overrides: Partial<CreatePayout['data']> = {}): CreatePayout => ({
  type: 'CreatePayout',
  data: {
    accepted: payoutAccepted().data,
    merchantId: MERCHANT_ID,
    mode: 'test',
    now: at(2),
    ...overrides,
  },
});

export const createDirectPayout = (
  overrides: Partial<CreateDirectPayout['data']> = {},
): CreateDirectPayout => ({
  type: 'CreateDirectPayout',
  data: {
    payoutId: PAYOUT_ID,
    merchantId: MERCHANT_ID,
    mode: 'test',
    provider: 'wave',
    amount: AMOUNT,
    recipient: { phone: RECIPIENT_PHONE, name: 'Fatou Sarr' },
    clientReference: EXCHANGE_REFERENCE,
    fees: FEES,
    now: at(2),
    ...overrides,
  },
});

export const startPayout = (now = at(3)): StartPayout => ({ type: 'StartPayout', data: { now } });

export const recordReference = (
  providerReference = WAVE_REFERENCE,
  now = at(4),
): RecordProviderReference => ({
  type: 'RecordProviderReference',
  data: { providerReference, now },
});

export const succeedPayout = (now = at(5)): SucceedPayout => ({
  type: 'SucceedPayout',
  data: { now },
});

export const failPayout = (reason = 'recipient_refused', now = at(5)): FailPayout => ({
  type: 'FailPayout',
  data: { reason, now },
});

export const reversePayout = (now = at(60)): ReversePayout => ({
  type: 'ReversePayout',
  data: { now },
});
