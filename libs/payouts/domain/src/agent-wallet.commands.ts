import { type Mode, type WalletProvider } from '@xaalis/kernel';
import type { Recipient, WalletPolicy } from './agent-wallet.events';
import type { PayoutFeeSchedule } from './payout-fee';

/**
 * Ids, secrets' hashes, the balance and `now` are made before the decision and come in with the
 * command, so `decide` stays pure and replayable.
 */
export type CreateAgentWallet = {
  type: 'CreateAgentWallet';
  data: {
    walletId: string;
    merchantId: string;
    mode: Mode;
    name: string;
    provider: WalletProvider;
    maxPayoutAmount: number;
    maxDailyAmount: number | null;
    allowedRecipientPhones: string[];
    now: Date;
  };
};

/** A PATCH (CONTRACT 5): the fields present change; `maxDailyAmount: null` removes the cap. */
export type UpdateAgentWalletPolicy = {
  type: 'UpdateAgentWalletPolicy';
  data: { changes: Partial<WalletPolicy>; now: Date };
};

export type IssueAgentKey = {
  type: 'IssueAgentKey';
  data: { keyId: string; secretHash: string; now: Date };
};

export type RevokeAgentKey = {
  type: 'RevokeAgentKey';
  data: { keyId: string; now: Date };
};

/** The body of `POST /v1/agent/payouts` (spec 4.3), as the decider sees it. */
export interface PayoutRequest {
  actionId: string;
  amount: number;
  /** Omitted is XOF, the only currency. */
  currency: string | null;
  recipient: Recipient;
}

/**
 * `available` is the merchant's available balance read before the decision, or null when the
 * ledger already holds amount + fee for this payout (the hold keyed by `payoutId`): then the
 * ledger's own check (never below zero) has decided the funds, and the wallet decides the rest.
 */
export type RequestPayout = {
  type: 'RequestPayout';
  data: PayoutRequest & {
    payoutId: string;
    agentKeyId: string;
    fees: PayoutFeeSchedule;
    available: number | null;
    now: Date;
  };
};

/** The payout failed or was reversed: its amount no longer counts against its day's cap. */
export type ReleasePayout = {
  type: 'ReleasePayout';
  data: { payoutId: string; now: Date };
};

/** Funds held for a payout id the wallet never accepted are released: the id is closed. */
export type AbandonPayout = {
  type: 'AbandonPayout';
  data: { payoutId: string; now: Date };
};

export type AgentWalletCommand =
  | CreateAgentWallet
  | UpdateAgentWalletPolicy
  | IssueAgentKey
  | RevokeAgentKey
  | RequestPayout
  | ReleasePayout
  | AbandonPayout;
