import {
  assertNever,
  DomainError,
  invalidState,
  notFound,
  successorId,
  validationError,
  type Decider,
} from '@xaalis/kernel';
import type {
  AbandonPayout,
  AgentWalletCommand,
  CreateAgentWallet,
  IssueAgentKey,
  ReleasePayout,
  RequestPayout,
  RevokeAgentKey,
  UpdateAgentWalletPolicy,
} from './agent-wallet.commands';
import type { AgentWalletEvent, WalletPolicy } from './agent-wallet.events';
import {
  evolve,
  exists,
  initialState,
  isKeyActive,
  type AgentWallet,
  type AgentWalletState,
} from './agent-wallet.state';
import { judgePayout, payoutRequestIssues, payoutRequestKey } from './payout-policy';
import { assertValidPolicy } from './wallet-policy.validation';

function requireWallet(state: AgentWalletState): AgentWallet {
  if (!exists(state)) throw notFound('agent wallet');
  return state;
}

export const actionConflict = () =>
  new DomainError(
    'idempotency_conflict',
    'This action_id was already used for a payout with another body.',
  );

/** A revoked key is refused like an unknown one (CONTRACT 5), here on the stream it changed. */
export const agentKeyRefused = () =>
  new DomainError('authentication_required', 'This agent key is not valid.');

function createAgentWallet(
  { data }: CreateAgentWallet,
  state: AgentWalletState,
): AgentWalletEvent[] {
  // Its id is fixed by the idempotency key: an existing wallet is this create's first run.
  if (exists(state)) return [];
  assertValidPolicy({
    name: data.name,
    provider: data.provider,
    maxPayoutAmount: data.maxPayoutAmount,
    maxDailyAmount: data.maxDailyAmount,
    allowedRecipientPhones: data.allowedRecipientPhones,
  });
  return [
    {
      type: 'AgentWalletCreated',
      data: {
        walletId: data.walletId,
        merchantId: data.merchantId,
        mode: data.mode,
        name: data.name,
        provider: data.provider,
        maxPayoutAmount: data.maxPayoutAmount,
        maxDailyAmount: data.maxDailyAmount,
        allowedRecipientPhones: [...data.allowedRecipientPhones],
        createdAt: data.now.toISOString(),
      },
    },
  ];
}

const POLICY_FIELDS = [
  'name',
  'maxPayoutAmount',
  'maxDailyAmount',
  'allowedRecipientPhones',
  'status',
] as const satisfies readonly (keyof WalletPolicy)[];

const sameValue = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Only what differs from the wallet's policy is a change; a PATCH that changes nothing is []. */
function updatePolicy(
  { data }: UpdateAgentWalletPolicy,
  state: AgentWalletState,
): AgentWalletEvent[] {
  const wallet = requireWallet(state);
  assertValidPolicy(data.changes);
  const changes: Partial<WalletPolicy> = {};
  for (const field of POLICY_FIELDS) {
    const value = data.changes[field];
    if (value === undefined || sameValue(value, wallet[field])) continue;
    Object.assign(changes, { [field]: Array.isArray(value) ? [...value] : value });
  }
  if (Object.keys(changes).length === 0) return [];
  return [
    {
      type: 'AgentWalletPolicyChanged',
      data: {
        walletId: wallet.walletId,
        changes,
        policyVersion: wallet.policyVersion + 1,
        changedAt: data.now.toISOString(),
      },
    },
  ];
}

/**
 * A key id is fixed by the idempotency key of the request that makes it: a key already there is
 * that request's first run, which died before answering, so the retry's secret replaces it.
 */
function issueAgentKey({ data }: IssueAgentKey, state: AgentWalletState): AgentWalletEvent[] {
  const wallet = requireWallet(state);
  const existing = wallet.keys.get(data.keyId);
  if (existing) {
    if (existing.secretHash === data.secretHash) return [];
    if (existing.revokedAt !== null) throw invalidState('This agent key is revoked.');
    return [
      {
        type: 'AgentKeySecretReissued',
        data: {
          walletId: wallet.walletId,
          keyId: data.keyId,
          secretHash: data.secretHash,
          reissuedAt: data.now.toISOString(),
        },
      },
    ];
  }
  return [
    {
      type: 'AgentKeyIssued',
      data: {
        walletId: wallet.walletId,
        keyId: data.keyId,
        secretHash: data.secretHash,
        issuedAt: data.now.toISOString(),
      },
    },
  ];
}

function revokeAgentKey({ data }: RevokeAgentKey, state: AgentWalletState): AgentWalletEvent[] {
  const wallet = requireWallet(state);
  const key = wallet.keys.get(data.keyId);
  if (!key) throw notFound('agent key');
  if (key.revokedAt !== null) return [];
  return [
    {
      type: 'AgentKeyRevoked',
      data: { walletId: wallet.walletId, keyId: key.keyId, revokedAt: data.now.toISOString() },
    },
  ];
}

/**
 * The payout's whole judgement in one decision on the wallet's stream: appended with the
 * expected revision, so payouts of one wallet are decided in turn and none can use a share of
 * the day's cap another already took. A known `action_id` comes first: its retry returns the
 * original payout (`[]`; the caller finds it with `payoutForAction`) whatever the policy says
 * by now, and another body under it is a 409.
 */
function requestPayout({ data }: RequestPayout, state: AgentWalletState): AgentWalletEvent[] {
  const wallet = requireWallet(state);
  const issues = payoutRequestIssues(data);
  if (issues.length > 0) throw validationError(issues);
  const requestKey = payoutRequestKey(data);
  const action = wallet.actions.get(data.actionId);
  if (action) {
    if (action.requestKey !== requestKey) throw actionConflict();
    return [];
  }
  if (!isKeyActive(wallet, data.agentKeyId)) throw agentKeyRefused();
  const { fee, day } = judgePayout(wallet, data, data.fees, data.available, data.now);
  // After the policy: a retry of a request the policy refused is told the rule again.
  if (wallet.abandoned.has(data.payoutId)) throw payoutAbandoned();
  return [
    {
      type: 'PayoutAccepted',
      data: {
        walletId: wallet.walletId,
        payoutId: data.payoutId,
        actionId: data.actionId,
        requestKey,
        agentKeyId: data.agentKeyId,
        policyVersion: wallet.policyVersion,
        provider: wallet.provider,
        amount: data.amount,
        fee,
        currency: 'XOF',
        recipient: { phone: data.recipient.phone, name: data.recipient.name },
        day,
        acceptedAt: data.now.toISOString(),
      },
    },
  ];
}

/** Once per payout the wallet accepted; a payout it never accepted is nothing to release. */
function releasePayout({ data }: ReleasePayout, state: AgentWalletState): AgentWalletEvent[] {
  const wallet = requireWallet(state);
  if (!wallet.payouts.has(data.payoutId) || wallet.released.has(data.payoutId)) return [];
  return [
    {
      type: 'PayoutReleased',
      data: {
        walletId: wallet.walletId,
        payoutId: data.payoutId,
        releasedAt: data.now.toISOString(),
      },
    },
  ];
}

/**
 * Closes a payout id whose funds were held but never claimed: once the wallet accepted it there
 * is nothing to abandon, and the caller settles it as any accepted payout.
 */
function abandonPayout({ data }: AbandonPayout, state: AgentWalletState): AgentWalletEvent[] {
  const wallet = requireWallet(state);
  if (wallet.payouts.has(data.payoutId) || wallet.abandoned.has(data.payoutId)) return [];
  return [
    {
      type: 'PayoutAbandoned',
      data: {
        walletId: wallet.walletId,
        payoutId: data.payoutId,
        abandonedAt: data.now.toISOString(),
      },
    },
  ];
}

/**
 * A request for a payout id given up while it asked for it (`openPayoutId` moved past it, but the
 * job that gave it up came first): the id is closed.
 */
export const payoutAbandoned = () =>
  new DomainError(
    'invalid_state',
    'This request was interrupted and its funds released: send it again with a new idempotency key (the same action_id).',
  );

/**
 * The payout id a request is made under: the one reserved at its idempotency claim, unless an
 * interrupted run of the same request held funds under it that were given back since
 * (`PayoutAbandoned`, which closes the id), then the next id of its line (`successorId`). Worked
 * out, not drawn, so every retry of the request (the same key reserves the same id) comes to the
 * same id, and a crash between its hold and its acceptance is settled as the first run's was.
 */
export function openPayoutId(state: AgentWalletState, reserved: string): string {
  if (!exists(state)) return reserved;
  let payoutId = reserved;
  while (state.abandoned.has(payoutId)) payoutId = successorId(payoutId);
  return payoutId;
}

/** The payout an `action_id` made, for answering its retries; null if none yet. */
export const payoutForAction = (state: AgentWalletState, actionId: string): string | null =>
  exists(state) ? (state.actions.get(actionId)?.payoutId ?? null) : null;

export function decide(command: AgentWalletCommand, state: AgentWalletState): AgentWalletEvent[] {
  switch (command.type) {
    case 'CreateAgentWallet':
      return createAgentWallet(command, state);
    case 'UpdateAgentWalletPolicy':
      return updatePolicy(command, state);
    case 'IssueAgentKey':
      return issueAgentKey(command, state);
    case 'RevokeAgentKey':
      return revokeAgentKey(command, state);
    case 'RequestPayout':
      return requestPayout(command, state);
    case 'ReleasePayout':
      return releasePayout(command, state);
    case 'AbandonPayout':
      return abandonPayout(command, state);
    default:
      return assertNever(command);
  }
}

export const agentWalletDecider: Decider<AgentWalletState, AgentWalletCommand, AgentWalletEvent> = {
  initialState,
  evolve,
  decide,
};
