import { type Currency, type Mode, type WalletProvider } from '@xaalis/kernel';
import type { Recipient } from './agent-wallet.events';

/**
 * Facts of one payout (stream `payout-<po_id>`), created from its wallet's `PayoutAccepted`, or
 * without a wallet for another context paying out from its own account (`CreateDirectPayout`).
 * Its lifecycle (spec 3.4) is its own stream, so settling one payout never contends with the
 * wallet's next acceptance.
 */
export type PayoutCreated = {
  type: 'PayoutCreated';
  data: {
    payoutId: string;
    merchantId: string;
    mode: Mode;
    /** Null for a payout made without a wallet: then it has no key and no policy either. */
    agentWalletId: string | null;
    agentKeyId: string | null;
    /** The wallet policy's version it was judged under (CONTRACT 5). */
    policyVersion: number | null;
    provider: WalletProvider;
    amount: number;
    fee: number;
    currency: Currency;
    recipient: Recipient;
    /** The agent's `action_id`, or the calling context's own reference. */
    clientReference: string;
    /** Fixed at creation, never made at call time: the provider's `Idempotency-Key`. */
    providerIdempotencyKey: string;
    createdAt: string;
  };
};

/**
 * The sender is about to call the provider: from here the payout is never sent again, only
 * looked up. Recorded before the call, so a crash after it leaves a payout known to be in flight.
 */
export type PayoutProcessing = {
  type: 'PayoutProcessing';
  data: { payoutId: string; processingAt: string };
};

/** The provider's id for the transfer, once known (its answer, or a lookup after a timeout). */
export type PayoutProviderReferenceRecorded = {
  type: 'PayoutProviderReferenceRecorded';
  data: { payoutId: string; providerReference: string; recordedAt: string };
};

export type PayoutSucceeded = {
  type: 'PayoutSucceeded';
  data: { payoutId: string; succeededAt: string };
};

/** The provider refused: amount and fee return to `available` (spec 3.4). */
export type PayoutFailed = {
  type: 'PayoutFailed';
  data: { payoutId: string; reason: string; failedAt: string };
};

/** Wave reversed a transfer: the payout is `failed` and amount and fee return (issue 19, 5). */
export type PayoutReversed = {
  type: 'PayoutReversed';
  data: { payoutId: string; reversedAt: string };
};

export type PayoutEvent =
  | PayoutCreated
  | PayoutProcessing
  | PayoutProviderReferenceRecorded
  | PayoutSucceeded
  | PayoutFailed
  | PayoutReversed;

export type PayoutEventType = PayoutEvent['type'];

export const PAYOUT_EVENT_TYPES: readonly PayoutEventType[] = [
  'PayoutCreated',
  'PayoutProcessing',
  'PayoutProviderReferenceRecorded',
  'PayoutSucceeded',
  'PayoutFailed',
  'PayoutReversed',
];

export const PAYOUT_STREAM_PREFIX = 'payout-';
export const payoutStream = (payoutId: string): string => `${PAYOUT_STREAM_PREFIX}${payoutId}`;
