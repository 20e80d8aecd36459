import { livemode, type AgentWalletStatus, type WalletProvider } from '@xaalis/kernel';
import { countingDay, spentOn, type AgentKeyState, type AgentWallet } from './agent-wallet.state';
import { dakarDay } from './dakar-day';

/** Spec 2.6 plus CONTRACT 5's `policy_version`. */
export interface AgentWalletObject {
  id: string;
  object: 'agent_wallet';
  livemode: boolean;
  name: string;
  status: AgentWalletStatus;
  provider: WalletProvider;
  max_payout_amount: number;
  max_daily_amount: number | null;
  allowed_recipient_phones: string[];
  policy_version: number;
  created_at: string;
  updated_at: string;
}

/**
 * A wallet object as stored in a read model (jsonb keeps no key order), in the order
 * `toAgentWalletObject` gives its fields, so a list shows each wallet as `GET` does.
 */
export function inAgentWalletOrder(stored: AgentWalletObject): AgentWalletObject {
  return {
    id: stored.id,
    object: stored.object,
    livemode: stored.livemode,
    name: stored.name,
    status: stored.status,
    provider: stored.provider,
    max_payout_amount: stored.max_payout_amount,
    max_daily_amount: stored.max_daily_amount,
    allowed_recipient_phones: stored.allowed_recipient_phones,
    policy_version: stored.policy_version,
    created_at: stored.created_at,
    updated_at: stored.updated_at,
  };
}

/** `GET /v1/agent/wallet`: the wallet and what is left of the current Dakar day (CONTRACT 5). */
export interface AgentWalletWithSpending extends AgentWalletObject {
  spent_today: number;
  /** Null without a daily cap; never below zero, though a lowered cap may be spent past. */
  remaining_today: number | null;
}

/** CONTRACT 5, without `secret_key`: the issuing answer adds it, once. */
export interface AgentKeyObject {
  id: string;
  object: 'agent_key';
  agent_wallet_id: string;
  livemode: boolean;
  created_at: string;
  revoked_at: string | null;
}

export function toAgentWalletObject(wallet: AgentWallet): AgentWalletObject {
  return {
    id: wallet.walletId,
    object: 'agent_wallet',
    livemode: livemode(wallet.mode),
    name: wallet.name,
    status: wallet.status,
    provider: wallet.provider,
    max_payout_amount: wallet.maxPayoutAmount,
    max_daily_amount: wallet.maxDailyAmount,
    allowed_recipient_phones: [...wallet.allowedRecipientPhones],
    policy_version: wallet.policyVersion,
    created_at: wallet.createdAt,
    updated_at: wallet.updatedAt,
  };
}

/** Counted as the decider counts: the day a payout made `now` would count against. */
export function toAgentWalletWithSpending(wallet: AgentWallet, now: Date): AgentWalletWithSpending {
  const spent = spentOn(wallet, countingDay(wallet, dakarDay(now)));
  return {
    ...toAgentWalletObject(wallet),
    spent_today: spent,
    remaining_today:
      wallet.maxDailyAmount === null ? null : Math.max(0, wallet.maxDailyAmount - spent),
  };
}

export function toAgentKeyObject(wallet: AgentWallet, key: AgentKeyState): AgentKeyObject {
  return {
    id: key.keyId,
    object: 'agent_key',
    agent_wallet_id: wallet.walletId,
    livemode: livemode(wallet.mode),
    created_at: key.createdAt,
    revoked_at: key.revokedAt,
  };
}
