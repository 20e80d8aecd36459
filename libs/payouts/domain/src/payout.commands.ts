import type { Mode, WalletProvider } from '@xaalis/kernel';
import type { PayoutAccepted, Recipient } from './agent-wallet.events';
import type { PayoutFeeSchedule } from './payout-fee';

/** Created from the wallet's acceptance: a retry, or the recovery job, creates it once. */
export type CreatePayout = {
  type: 'CreatePayout';
  data: { accepted: PayoutAccepted['data']; merchantId: string; mode: Mode; now: Date };
};

/**
 * A payout another context makes from its own account, without an agent wallet (the exchange
 * pays `receive_amount` out): no policy and no day's cap to judge, and the funds are the
 * ledger's, held before this command. Its id is the caller's, so a retry creates nothing more.
 */
export type CreateDirectPayout = {
  type: 'CreateDirectPayout';
  data: {
    payoutId: string;
    merchantId: string;
    mode: Mode;
    provider: WalletProvider;
    amount: number;
    recipient: Recipient;
    clientReference: string;
    /** The configured schedule: the fee is the payout's from its creation on. */
    fees: PayoutFeeSchedule;
    now: Date;
  };
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
  | CreatePayout
  | CreateDirectPayout
  | StartPayout
  | RecordProviderReference
  | SucceedPayout
  | FailPayout
  | ReversePayout;
