/**
 * Agent wallets', agent keys' and payouts' request-reply patterns (spec 4.3, CONTRACT 5 and 6):
 * the gateway asks, the payouts app answers. Part of `REQUESTS` (requests.ts).
 */
import {
  AgentKeyRef,
  AgentWalletRef,
  CreateAgentPayoutRequest,
  CreateAgentWalletRequest,
  CreatePayoutRequest,
  IssueAgentKeyRequest,
  ListAgentWalletsRequest,
  ListWalletPayoutsRequest,
  PayoutRef,
  PayoutTestHelperRequest,
  UpdateAgentWalletRequest,
} from './agent-wallets.messages';
import {
  AgentKeyListReply,
  AgentKeyObjectReply,
  AgentWalletListReply,
  AgentWalletReply,
  AgentWalletSpendingReply,
  PayoutListReply,
  PayoutReply,
} from './agent-wallets.replies';
import type { RequestContract } from '../shared/request-contract';

export const PAYOUTS_WALLET_CREATE = 'payouts.agent_wallet.create';
export const PAYOUTS_WALLET_GET = 'payouts.agent_wallet.get';
export const PAYOUTS_WALLET_LIST = 'payouts.agent_wallet.list';
export const PAYOUTS_WALLET_UPDATE = 'payouts.agent_wallet.update';
export const PAYOUTS_AGENT_KEY_ISSUE = 'payouts.agent_key.issue';
export const PAYOUTS_AGENT_KEY_LIST = 'payouts.agent_key.list';
export const PAYOUTS_AGENT_KEY_REVOKE = 'payouts.agent_key.revoke';
export const PAYOUTS_AGENT_WALLET_GET = 'payouts.agent.wallet_get';
export const PAYOUTS_AGENT_PAYOUT_CREATE = 'payouts.agent.payout_create';
export const PAYOUTS_PAYOUT_CREATE = 'payouts.payout.create';
export const PAYOUTS_PAYOUT_GET = 'payouts.payout.get';
export const PAYOUTS_PAYOUT_LIST = 'payouts.payout.list';
export const PAYOUTS_TEST_HELPER = 'payouts.test_helpers.apply';

export const AGENT_WALLET_REQUESTS = {
  [PAYOUTS_WALLET_CREATE]: {
    owner: 'payouts',
    callers: ['gateway'],
    request: CreateAgentWalletRequest,
    reply: AgentWalletReply,
  } satisfies RequestContract<CreateAgentWalletRequest, AgentWalletReply>,
  [PAYOUTS_WALLET_GET]: {
    owner: 'payouts',
    callers: ['gateway'],
    request: AgentWalletRef,
    reply: AgentWalletReply,
  } satisfies RequestContract<AgentWalletRef, AgentWalletReply>,
  [PAYOUTS_WALLET_LIST]: {
    owner: 'payouts',
    callers: ['gateway'],
    request: ListAgentWalletsRequest,
    reply: AgentWalletListReply,
  } satisfies RequestContract<ListAgentWalletsRequest, AgentWalletListReply>,
  [PAYOUTS_WALLET_UPDATE]: {
    owner: 'payouts',
    callers: ['gateway'],
    request: UpdateAgentWalletRequest,
    reply: AgentWalletReply,
  } satisfies RequestContract<UpdateAgentWalletRequest, AgentWalletReply>,
  [PAYOUTS_AGENT_KEY_ISSUE]: {
    owner: 'payouts',
    callers: ['gateway'],
    request: IssueAgentKeyRequest,
    reply: AgentKeyObjectReply,
  } satisfies RequestContract<IssueAgentKeyRequest, AgentKeyObjectReply>,
  [PAYOUTS_AGENT_KEY_LIST]: {
    owner: 'payouts',
    callers: ['gateway'],
    request: AgentWalletRef,
    reply: AgentKeyListReply,
  } satisfies RequestContract<AgentWalletRef, AgentKeyListReply>,
  [PAYOUTS_AGENT_KEY_REVOKE]: {
    owner: 'payouts',
    callers: ['gateway'],
    request: AgentKeyRef,
    reply: AgentKeyObjectReply,
  } satisfies RequestContract<AgentKeyRef, AgentKeyObjectReply>,
  [PAYOUTS_AGENT_WALLET_GET]: {
    owner: 'payouts',
    callers: ['gateway'],
    request: AgentWalletRef,
    reply: AgentWalletSpendingReply,
  } satisfies RequestContract<AgentWalletRef, AgentWalletSpendingReply>,
  [PAYOUTS_AGENT_PAYOUT_CREATE]: {
    owner: 'payouts',
    callers: ['gateway'],
    request: CreateAgentPayoutRequest,
    reply: PayoutReply,
  } satisfies RequestContract<CreateAgentPayoutRequest, PayoutReply>,
  [PAYOUTS_PAYOUT_GET]: {
    owner: 'payouts',
    callers: ['gateway'],
    request: PayoutRef,
    reply: PayoutReply,
  } satisfies RequestContract<PayoutRef, PayoutReply>,
  [PAYOUTS_PAYOUT_LIST]: {
    owner: 'payouts',
    callers: ['gateway'],
    request: ListWalletPayoutsRequest,
    reply: PayoutListReply,
  } satisfies RequestContract<ListWalletPayoutsRequest, PayoutListReply>,
  [PAYOUTS_TEST_HELPER]: {
    owner: 'payouts',
    callers: ['gateway'],
    request: PayoutTestHelperRequest,
    reply: PayoutReply,
  } satisfies RequestContract<PayoutTestHelperRequest, PayoutReply>,
  [PAYOUTS_PAYOUT_CREATE]: {
    owner: 'payouts',
    // The exchange pays `receive_amount` out from the service's own account.
    callers: ['exchange'],
    request: CreatePayoutRequest,
    reply: PayoutReply,
  } satisfies RequestContract<CreatePayoutRequest, PayoutReply>,
} as const;
