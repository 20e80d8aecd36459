import { livemode, type Currency, type PayoutStatus, type WalletProvider } from '@xaalis/kernel';
import type { Payout } from './payout.state';

/**
 * Spec 2.5 plus CONTRACT 5's `agent_key_id` and `policy_version`: the payout as
 * `GET /v1/payouts/{id}` shows it, and as `data.object` of `payout.succeeded` / `payout.failed`.
 */
export interface PayoutObject {
  id: string;
  object: 'payout';
  agent_wallet_id: string | null;
  agent_key_id: string | null;
  policy_version: number | null;
  livemode: boolean;
  amount: number;
  fee: number;
  currency: Currency;
  provider: WalletProvider | 'mock';
  status: PayoutStatus;
  recipient: { phone: string; name: string | null };
  client_reference: string | null;
  failure_reason: string | null;
  created_at: string;
  updated_at: string;
}

export function toPayoutObject(payout: Payout): PayoutObject {
  return {
    id: payout.payoutId,
    object: 'payout',
    agent_wallet_id: payout.agentWalletId,
    agent_key_id: payout.agentKeyId,
    policy_version: payout.policyVersion,
    livemode: livemode(payout.mode),
    amount: payout.amount,
    fee: payout.fee,
    currency: payout.currency,
    provider: payout.provider,
    status: payout.status,
    recipient: { phone: payout.recipient.phone, name: payout.recipient.name },
    client_reference: payout.clientReference,
    failure_reason: payout.failureReason,
    created_at: payout.createdAt,
    updated_at: payout.updatedAt,
  };
}
