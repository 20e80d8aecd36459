import {
  type AgentWalletStatus,
  type Currency,
  type Mode,
  type WalletProvider,
} from '@xaalis/kernel';

/**
 * Facts of the agent wallet aggregate (stream `agent-wallet-<aw_id>`): its policy, its agent keys,
 * and every payout it accepted. A payout is judged on this stream and appended to it with the
 * expected revision, so two payouts of one wallet are decided one after the other: neither can
 * pass a cap the other already used (issue 19, item 3). The payout's own lifecycle lives on its
 * own stream (`payout-<po_id>`); only a failure comes back here, to free its share of the day.
 */
export interface Recipient {
  phone: string;
  name: string | null;
}

export interface WalletPolicy {
  name: string;
  maxPayoutAmount: number;
  /** Null: no daily cap. */
  maxDailyAmount: number | null;
  allowedRecipientPhones: string[];
  status: AgentWalletStatus;
}

export type AgentWalletCreated = {
  type: 'AgentWalletCreated';
  data: {
    walletId: string;
    merchantId: string;
    mode: Mode;
    name: string;
    provider: WalletProvider;
    maxPayoutAmount: number;
    maxDailyAmount: number | null;
    allowedRecipientPhones: string[];
    createdAt: string;
  };
};

/**
 * One PATCH: only the fields it changed, and the version they make (one higher). The policy's
 * history replays from these events (CONTRACT 5).
 */
export type AgentWalletPolicyChanged = {
  type: 'AgentWalletPolicyChanged';
  data: {
    walletId: string;
    changes: Partial<WalletPolicy>;
    policyVersion: number;
    changedAt: string;
  };
};

/** The key's public record: the secret itself is shown once and stored nowhere. */
export type AgentKeyIssued = {
  type: 'AgentKeyIssued';
  data: { walletId: string; keyId: string; secretHash: string; issuedAt: string };
};

/**
 * The request that issued this key ran again because its first run died before answering:
 * nobody saw that run's secret, so the key gets a new one, which the retry shows.
 */
export type AgentKeySecretReissued = {
  type: 'AgentKeySecretReissued';
  data: { walletId: string; keyId: string; secretHash: string; reissuedAt: string };
};

export type AgentKeyRevoked = {
  type: 'AgentKeyRevoked';
  data: { walletId: string; keyId: string; revokedAt: string };
};

/**
 * The wallet accepted a payout under its policy: everything the payout's own stream is created
 * from, so a crash between this append and that creation loses nothing (a job creates it from
 * here). `requestKey` is the request's fingerprint, for `action_id` retries.
 */
export type PayoutAccepted = {
  type: 'PayoutAccepted';
  data: {
    walletId: string;
    payoutId: string;
    actionId: string;
    requestKey: string;
    agentKeyId: string;
    policyVersion: number;
    provider: WalletProvider;
    amount: number;
    fee: number;
    currency: Currency;
    recipient: Recipient;
    /** The Dakar day whose cap this payout counts against. */
    day: string;
    acceptedAt: string;
  };
};

/** The payout failed (refused, reversed): it no longer counts against its day's cap. */
export type PayoutReleased = {
  type: 'PayoutReleased';
  data: { walletId: string; payoutId: string; releasedAt: string };
};

/**
 * Funds were held for this payout id but the wallet never accepted it (the request died between
 * the hold and the append): the hold is released, and the id can no longer be accepted, so a late
 * append cannot spend money that is no longer held.
 */
export type PayoutAbandoned = {
  type: 'PayoutAbandoned';
  data: { walletId: string; payoutId: string; abandonedAt: string };
};

export type AgentWalletEvent =
  | AgentWalletCreated
  | AgentWalletPolicyChanged
  | AgentKeyIssued
  | AgentKeySecretReissued
  | AgentKeyRevoked
  | PayoutAccepted
  | PayoutReleased
  | PayoutAbandoned;

export type AgentWalletEventType = AgentWalletEvent['type'];

export const AGENT_WALLET_EVENT_TYPES: readonly AgentWalletEventType[] = [
  'AgentWalletCreated',
  'AgentWalletPolicyChanged',
  'AgentKeyIssued',
  'AgentKeySecretReissued',
  'AgentKeyRevoked',
  'PayoutAccepted',
  'PayoutReleased',
  'PayoutAbandoned',
];

export const AGENT_WALLET_STREAM_PREFIX = 'agent-wallet-';
export const agentWalletStream = (walletId: string): string =>
  `${AGENT_WALLET_STREAM_PREFIX}${walletId}`;
