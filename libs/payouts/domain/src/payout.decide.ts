import {
  assertNever,
  DomainError,
  invalidState,
  MAX_WALLET_AMOUNT,
  notFound,
  validationError,
  WALLET_PROVIDERS,
  type Decider,
} from '@xaalis/kernel';
import { payoutFee } from './payout-fee';
import { payoutBodyIssues } from './payout-request.validation';
import type {
  CreateDirectPayout,
  CreatePayout,
  FailPayout,
  PayoutCommand,
  RecordProviderReference,
  ReversePayout,
  StartPayout,
  SucceedPayout,
} from './payout.commands';
import type { PayoutEvent } from './payout.events';
import { evolve, exists, initialState, type Payout, type PayoutState } from './payout.state';

function requirePayout(state: PayoutState): Payout {
  if (!exists(state)) throw notFound('payout');
  return state;
}

const refused = (payout: Payout, what: string) =>
  invalidState(`The payout is ${payout.status}: it cannot ${what}.`, { status: payout.status });

function createPayout({ data }: CreatePayout, state: PayoutState): PayoutEvent[] {
  // The payout id is fixed by the wallet's acceptance: an existing payout is a retry's.
  if (exists(state)) return [];
  const accepted = data.accepted;
  return [
    {
      type: 'PayoutCreated',
      data: {
        payoutId: accepted.payoutId,
        merchantId: data.merchantId,
        mode: data.mode,
        agentWalletId: accepted.walletId,
        agentKeyId: accepted.agentKeyId,
        policyVersion: accepted.policyVersion,
        provider: accepted.provider,
        amount: accepted.amount,
        fee: accepted.fee,
        currency: accepted.currency,
        recipient: accepted.recipient,
        clientReference: accepted.actionId,
        providerIdempotencyKey: accepted.payoutId,
        // The acceptance's time, not the creation's: the payout exists from its acceptance.
        createdAt: accepted.acceptedAt,
      },
    },
  ];
}

/**
 * A payout without a wallet: no key, no policy, the fee from the configured schedule, and its
 * provider idempotency key fixed now, as an accepted payout's is. Its id is the caller's (the
 * ledger holds its money under that id before the stream is created): an existing payout made by
 * the same request is a retry's, and nothing more is decided; one made by another request is the
 * caller's mistake, refused rather than answered with a payout it did not ask for.
 */
function createDirectPayout({ data }: CreateDirectPayout, state: PayoutState): PayoutEvent[] {
  if (exists(state)) {
    if (madeBy(state, data)) return [];
    throw new DomainError(
      'idempotency_conflict',
      'This payout id was already used for another payout.',
      { payout_id: data.payoutId },
    );
  }
  const issues = payoutBodyIssues(
    {
      reference: data.clientReference,
      amount: data.amount,
      currency: null,
      recipient: data.recipient,
    },
    'client_reference',
  );
  if (data.amount > MAX_WALLET_AMOUNT) {
    issues.push({ field: 'amount', issue: `must be at most ${MAX_WALLET_AMOUNT}` });
  }
  if (!WALLET_PROVIDERS.includes(data.provider)) {
    issues.push({ field: 'provider', issue: `must be one of ${WALLET_PROVIDERS.join(', ')}` });
  }
  if (issues.length > 0) throw validationError(issues);
  return [
    {
      type: 'PayoutCreated',
      data: {
        payoutId: data.payoutId,
        merchantId: data.merchantId,
        mode: data.mode,
        agentWalletId: null,
        agentKeyId: null,
        policyVersion: null,
        provider: data.provider,
        amount: data.amount,
        fee: payoutFee(data.amount, data.fees[data.provider]),
        currency: 'XOF',
        recipient: { phone: data.recipient.phone, name: data.recipient.name },
        clientReference: data.clientReference,
        providerIdempotencyKey: data.payoutId,
        createdAt: data.now.toISOString(),
      },
    },
  ];
}

/** Whether `payout` is what this request makes: its fee aside, which the schedule may change. */
const madeBy = (payout: Payout, request: CreateDirectPayout['data']): boolean =>
  payout.agentWalletId === null &&
  payout.merchantId === request.merchantId &&
  payout.mode === request.mode &&
  payout.provider === request.provider &&
  payout.amount === request.amount &&
  payout.recipient.phone === request.recipient.phone &&
  payout.recipient.name === request.recipient.name &&
  payout.clientReference === request.clientReference;

/**
 * Only the decision that appends `PayoutProcessing` may call the provider: `[]` means another
 * sender already claimed it, and the payout is looked up, never sent twice.
 */
function startPayout({ data }: StartPayout, state: PayoutState): PayoutEvent[] {
  const payout = requirePayout(state);
  switch (payout.status) {
    case 'pending':
      return [
        {
          type: 'PayoutProcessing',
          data: { payoutId: payout.payoutId, processingAt: data.now.toISOString() },
        },
      ];
    case 'processing':
      return [];
    case 'succeeded':
    case 'failed':
      throw refused(payout, 'be sent');
    default:
      return assertNever(payout.status);
  }
}

function recordProviderReference(
  { data }: RecordProviderReference,
  state: PayoutState,
): PayoutEvent[] {
  const payout = requirePayout(state);
  if (data.providerReference.trim() === '') {
    throw validationError([{ field: 'provider_reference', issue: 'must not be empty' }]);
  }
  if (payout.providerReference === data.providerReference) return [];
  if (payout.status === 'pending') throw refused(payout, 'have a provider reference');
  if (payout.providerReference !== null) {
    throw invalidState('The payout already has another provider reference.', {
      status: payout.status,
    });
  }
  return [
    {
      type: 'PayoutProviderReferenceRecorded',
      data: {
        payoutId: payout.payoutId,
        providerReference: data.providerReference,
        recordedAt: data.now.toISOString(),
      },
    },
  ];
}

function succeedPayout({ data }: SucceedPayout, state: PayoutState): PayoutEvent[] {
  const payout = requirePayout(state);
  switch (payout.status) {
    case 'pending':
    case 'processing':
      return [
        {
          type: 'PayoutSucceeded',
          data: { payoutId: payout.payoutId, succeededAt: data.now.toISOString() },
        },
      ];
    case 'succeeded':
      return [];
    case 'failed':
      // Never marked failed on a guess: a failed payout's money is back, so a late success is a
      // contradiction for an operator, not a state to overwrite.
      throw refused(payout, 'succeed');
    default:
      return assertNever(payout.status);
  }
}

function failPayout({ data }: FailPayout, state: PayoutState): PayoutEvent[] {
  const payout = requirePayout(state);
  if (data.reason.trim() === '') {
    throw validationError([{ field: 'failure_reason', issue: 'must not be empty' }]);
  }
  switch (payout.status) {
    case 'pending':
    case 'processing':
      return [
        {
          type: 'PayoutFailed',
          data: {
            payoutId: payout.payoutId,
            reason: data.reason,
            failedAt: data.now.toISOString(),
          },
        },
      ];
    case 'failed':
      return [];
    case 'succeeded':
      // Money that reached the recipient comes back only by a reversal.
      throw refused(payout, 'fail');
    default:
      return assertNever(payout.status);
  }
}

/** Wave's `reversed`: after `succeeded`, or found on a lookup while still `processing`. */
function reversePayout({ data }: ReversePayout, state: PayoutState): PayoutEvent[] {
  const payout = requirePayout(state);
  switch (payout.status) {
    case 'processing':
    case 'succeeded':
      return [
        {
          type: 'PayoutReversed',
          data: { payoutId: payout.payoutId, reversedAt: data.now.toISOString() },
        },
      ];
    case 'failed':
      return [];
    case 'pending':
      throw refused(payout, 'be reversed before it was sent');
    default:
      return assertNever(payout.status);
  }
}

export function decide(command: PayoutCommand, state: PayoutState): PayoutEvent[] {
  switch (command.type) {
    case 'CreatePayout':
      return createPayout(command, state);
    case 'CreateDirectPayout':
      return createDirectPayout(command, state);
    case 'StartPayout':
      return startPayout(command, state);
    case 'RecordProviderReference':
      return recordProviderReference(command, state);
    case 'SucceedPayout':
      return succeedPayout(command, state);
    case 'FailPayout':
      return failPayout(command, state);
    case 'ReversePayout':
      return reversePayout(command, state);
    default:
      return assertNever(command);
  }
}

export const payoutDecider: Decider<PayoutState, PayoutCommand, PayoutEvent> = {
  initialState,
  evolve,
  decide,
};
