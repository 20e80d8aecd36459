import { PAYOUT_FAILURE_REASONS, assertNever, type PayoutStatus } from '@xaalis/kernel';
import type { PayoutCreated, PayoutEvent } from './payout.events';

type CreatedWith = PayoutCreated['data'];

/** What the payout was created with, and what happened to it since. */
export interface Payout extends CreatedWith {
  providerReference: string | null;
  status: PayoutStatus;
  failureReason: string | null;
  /** True once Wave reversed it after reporting it sent: the ledger must undo a settlement. */
  reversed: boolean;
  updatedAt: string;
}

export type PayoutState = { status: 'absent' } | Payout;

export const initialState = (): PayoutState => ({ status: 'absent' });

export const exists = (state: PayoutState): state is Payout => state.status !== 'absent';

/** What the payout takes from `available` while it counts: amount + fee (CONTRACT 6). */
export const debit = (payout: Pick<Payout, 'amount' | 'fee'>): number => payout.amount + payout.fee;

export function evolve(state: PayoutState, event: PayoutEvent): PayoutState {
  if (event.type === 'PayoutCreated') {
    const data = event.data;
    return {
      ...data,
      providerReference: null,
      status: 'pending',
      failureReason: null,
      reversed: false,
      updatedAt: data.createdAt,
    };
  }
  if (!exists(state)) return state;
  switch (event.type) {
    case 'PayoutProcessing':
      return { ...state, status: 'processing', updatedAt: event.data.processingAt };
    case 'PayoutProviderReferenceRecorded':
      return {
        ...state,
        providerReference: event.data.providerReference,
        updatedAt: event.data.recordedAt,
      };
    case 'PayoutSucceeded':
      return { ...state, status: 'succeeded', updatedAt: event.data.succeededAt };
    case 'PayoutFailed':
      return {
        ...state,
        status: 'failed',
        failureReason: event.data.reason,
        updatedAt: event.data.failedAt,
      };
    case 'PayoutReversed':
      return {
        ...state,
        status: 'failed',
        failureReason: PAYOUT_FAILURE_REASONS.reversed,
        reversed: true,
        updatedAt: event.data.reversedAt,
      };
    default:
      return assertNever(event);
  }
}
