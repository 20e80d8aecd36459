import { assertNever, notFound, type ExchangeStatus } from '@xaalis/kernel';
import type { ExchangeCreated, ExchangeEvent, ExchangeFailureReason } from './exchange.events';

export { EXCHANGE_STATUSES, type ExchangeStatus } from '@xaalis/kernel';

export type Exchange = ExchangeCreated['data'] & {
  status: ExchangeStatus;
  failureReason: ExchangeFailureReason | null;
  refundId: string | null;
  refundedAt: string | null;
  dayReleasedAt: string | null;
};

export type ExchangeState = Exchange | null;

export const initialState = (): ExchangeState => null;

export function requireExchange(state: ExchangeState): Exchange {
  if (state === null) throw notFound('exchange');
  return state;
}

export function evolve(state: ExchangeState, event: ExchangeEvent): ExchangeState {
  if (event.type === 'ExchangeCreated') {
    return {
      ...event.data,
      status: 'awaiting_payment',
      failureReason: null,
      refundId: null,
      refundedAt: null,
      dayReleasedAt: null,
    };
  }
  if (state === null) return state;
  switch (event.type) {
    case 'ExchangeProcessing':
      return { ...state, status: 'processing' };
    case 'ExchangeCompleted':
      return { ...state, status: 'completed' };
    case 'ExchangeExpired':
      return { ...state, status: 'expired' };
    case 'ExchangeFailed':
      return { ...state, status: 'failed', failureReason: event.data.reason };
    case 'ExchangeRefundRequested':
      return { ...state, refundId: event.data.refundId };
    case 'ExchangeRefunded':
      return { ...state, refundedAt: event.data.refundedAt };
    case 'ExchangeDayReleased':
      return { ...state, dayReleasedAt: event.data.releasedAt };
    default:
      return assertNever(event);
  }
}
