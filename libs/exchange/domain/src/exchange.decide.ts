import { assertNever, invalidState, type Decider } from '@xaalis/kernel';
import { assertValidTerms, type ExchangeProvider } from './exchange-bounds';
import type {
  CreateExchange,
  ExchangeCommand,
  RecordPaymentExpired,
  RecordPaymentFailed,
  RecordPaymentSucceeded,
  RecordPayoutFailed,
  RecordPayoutSucceeded,
  RecordDayReleased,
  RecordRefundSettled,
} from './exchange.commands';
import type { ExchangeEvent } from './exchange.events';
import {
  evolve,
  initialState,
  requireExchange,
  type Exchange,
  type ExchangeState,
} from './exchange.state';

const refused = (exchange: Exchange, move: string) =>
  invalidState(`The exchange is ${exchange.status}: ${move} does not apply.`, {
    status: exchange.status,
  });

function assertOwn(what: string, expected: string, given: string): void {
  if (expected !== given) {
    throw invalidState(`That ${what} is not this exchange's.`, { [what]: given });
  }
}

function createExchange({ data }: CreateExchange, state: ExchangeState): ExchangeEvent[] {
  // Its id is fixed by the quote's redemption: an existing exchange is this create's first run.
  if (state !== null) return [];
  assertValidTerms(data);
  if (data.fee < 0 || data.receiveAmount < 1 || data.fee + data.receiveAmount !== data.sendAmount) {
    throw new RangeError('an exchange takes its fee and receive amount from its quote');
  }
  return [
    {
      type: 'ExchangeCreated',
      data: {
        exchangeId: data.exchangeId,
        quoteId: data.quoteId,
        from: data.from as ExchangeProvider,
        to: data.to as ExchangeProvider,
        sendAmount: data.sendAmount,
        fee: data.fee,
        receiveAmount: data.receiveAmount,
        phone: data.phone,
        paymentId: data.paymentId,
        payoutId: data.payoutId,
        createdAt: data.now.toISOString(),
      },
    },
  ];
}

/** Paid once: an exchange past `awaiting_payment` that was paid hears it again as a repeat. */
function recordPaymentSucceeded(
  { data }: RecordPaymentSucceeded,
  state: ExchangeState,
): ExchangeEvent[] {
  const exchange = requireExchange(state);
  assertOwn('payment', exchange.paymentId, data.paymentId);
  const { exchangeId, status } = exchange;
  if (status === 'awaiting_payment') {
    return [{ type: 'ExchangeProcessing', data: { exchangeId, paidAt: data.now.toISOString() } }];
  }
  if (status === 'processing' || status === 'completed') return [];
  if (exchange.failureReason === 'payout_failed') return [];
  throw refused(exchange, 'a successful payment');
}

function recordPaymentExpired(
  { data }: RecordPaymentExpired,
  state: ExchangeState,
): ExchangeEvent[] {
  const exchange = requireExchange(state);
  assertOwn('payment', exchange.paymentId, data.paymentId);
  if (exchange.status === 'expired') return [];
  if (exchange.status !== 'awaiting_payment') throw refused(exchange, 'an expired payment');
  return [
    {
      type: 'ExchangeExpired',
      data: { exchangeId: exchange.exchangeId, expiredAt: data.now.toISOString() },
    },
  ];
}

function recordPaymentFailed({ data }: RecordPaymentFailed, state: ExchangeState): ExchangeEvent[] {
  const exchange = requireExchange(state);
  assertOwn('payment', exchange.paymentId, data.paymentId);
  if (exchange.failureReason === 'payment_failed') return [];
  if (exchange.status !== 'awaiting_payment') throw refused(exchange, 'a failed payment');
  return [
    {
      type: 'ExchangeFailed',
      data: {
        exchangeId: exchange.exchangeId,
        reason: 'payment_failed',
        failedAt: data.now.toISOString(),
      },
    },
  ];
}

function recordPayoutSucceeded(
  { data }: RecordPayoutSucceeded,
  state: ExchangeState,
): ExchangeEvent[] {
  const exchange = requireExchange(state);
  assertOwn('payout', exchange.payoutId, data.payoutId);
  if (exchange.status === 'completed') return [];
  if (exchange.status !== 'processing') throw refused(exchange, 'a successful payout');
  return [
    {
      type: 'ExchangeCompleted',
      data: { exchangeId: exchange.exchangeId, completedAt: data.now.toISOString() },
    },
  ];
}

/** The customer paid and got nothing: the whole send amount is refunded, once. */
function recordPayoutFailed({ data }: RecordPayoutFailed, state: ExchangeState): ExchangeEvent[] {
  const exchange = requireExchange(state);
  assertOwn('payout', exchange.payoutId, data.payoutId);
  if (exchange.failureReason === 'payout_failed') return [];
  if (exchange.status !== 'processing') throw refused(exchange, 'a failed payout');
  const { exchangeId, paymentId, sendAmount } = exchange;
  const at = data.now.toISOString();
  return [
    { type: 'ExchangeFailed', data: { exchangeId, reason: 'payout_failed', failedAt: at } },
    {
      type: 'ExchangeRefundRequested',
      data: { exchangeId, paymentId, refundId: data.refundId, amount: sendAmount, requestedAt: at },
    },
  ];
}

function recordRefundSettled({ data }: RecordRefundSettled, state: ExchangeState): ExchangeEvent[] {
  const exchange = requireExchange(state);
  if (exchange.refundId === null) throw refused(exchange, 'a refund');
  assertOwn('refund', exchange.refundId, data.refundId);
  if (exchange.refundedAt !== null) return [];
  return [
    {
      type: 'ExchangeRefunded',
      data: {
        exchangeId: exchange.exchangeId,
        refundId: data.refundId,
        refundedAt: data.now.toISOString(),
      },
    },
  ];
}

/** Only an exchange that failed or expired frees its day; once. */
function recordDayReleased({ data }: RecordDayReleased, state: ExchangeState): ExchangeEvent[] {
  const exchange = requireExchange(state);
  if (exchange.dayReleasedAt !== null) return [];
  if (exchange.status !== 'failed' && exchange.status !== 'expired') {
    throw refused(exchange, 'freeing its day');
  }
  return [
    {
      type: 'ExchangeDayReleased',
      data: { exchangeId: exchange.exchangeId, releasedAt: data.now.toISOString() },
    },
  ];
}

export function decide(command: ExchangeCommand, state: ExchangeState): ExchangeEvent[] {
  switch (command.type) {
    case 'CreateExchange':
      return createExchange(command, state);
    case 'RecordPaymentSucceeded':
      return recordPaymentSucceeded(command, state);
    case 'RecordPaymentExpired':
      return recordPaymentExpired(command, state);
    case 'RecordPaymentFailed':
      return recordPaymentFailed(command, state);
    case 'RecordPayoutSucceeded':
      return recordPayoutSucceeded(command, state);
    case 'RecordPayoutFailed':
      return recordPayoutFailed(command, state);
    case 'RecordRefundSettled':
      return recordRefundSettled(command, state);
    case 'RecordDayReleased':
      return recordDayReleased(command, state);
    default:
      return assertNever(command);
  }
}

export const exchangeDecider: Decider<ExchangeState, ExchangeCommand, ExchangeEvent> = {
  initialState,
  evolve,
  decide,
};
