import type { Mode } from '@xaalis/kernel';
import type { PayoutAccepted } from './agent-wallet.events';

/** Created from the wallet's acceptance: a retry, or the recovery job, creates it once. */
export type CreatePayout = {
  type: 'CreatePayout';
  data: { accepted: PayoutAccepted['data']; merchantId: string; mode: Mode; now: Date };
};

/** The sender claims the payout before calling the provider. */
export type StartPayout = {
  type: 'StartPayout';
  data: { now: Date };
};

export type RecordProviderReference = {
  type: 'RecordProviderReference';
  data: { providerReference: string; now: Date };
};

/**
 * How it ended, from the provider (answer, webhook, lookup, sandbox settling) or a test helper:
 * the same command either way, since a test helper has exactly the real trigger's effects
 * (CONTRACT 6).
 */
export type SucceedPayout = {
  type: 'SucceedPayout';
  data: { now: Date };
};

export type FailPayout = {
  type: 'FailPayout';
  data: { reason: string; now: Date };
};

/** A `reversed` status from Wave. */
export type ReversePayout = {
  type: 'ReversePayout';
  data: { now: Date };
};

export type PayoutCommand =
  CreatePayout | StartPayout | RecordProviderReference | SucceedPayout | FailPayout | ReversePayout;
