import type { ExchangeProvider } from './exchange-bounds';

/** Facts of one exchange (stream `exchange-<ex_id>`). */
export type ExchangeCreated = {
  type: 'ExchangeCreated';
  data: {
    exchangeId: string;
    quoteId: string;
    from: ExchangeProvider;
    to: ExchangeProvider;
    sendAmount: number;
    fee: number;
    receiveAmount: number;
    phone: string;
    paymentId: string;
    payoutId: string;
    createdAt: string;
  };
};

/** The customer paid `sendAmount`: `receiveAmount` goes out with `to`. */
export type ExchangeProcessing = {
  type: 'ExchangeProcessing';
  data: { exchangeId: string; paidAt: string };
};

export type ExchangeCompleted = {
  type: 'ExchangeCompleted';
  data: { exchangeId: string; completedAt: string };
};

export type ExchangeExpired = {
  type: 'ExchangeExpired';
  data: { exchangeId: string; expiredAt: string };
};

export type ExchangeFailureReason = 'payment_failed' | 'payout_failed';

export type ExchangeFailed = {
  type: 'ExchangeFailed';
  data: { exchangeId: string; reason: ExchangeFailureReason; failedAt: string };
};

/** The payout failed after the customer paid: all of `sendAmount` goes back, fee included. */
export type ExchangeRefundRequested = {
  type: 'ExchangeRefundRequested';
  data: {
    exchangeId: string;
    paymentId: string;
    refundId: string;
    amount: number;
    requestedAt: string;
  };
};

export type ExchangeRefunded = {
  type: 'ExchangeRefunded';
  data: { exchangeId: string; refundId: string; refundedAt: string };
};

/** Its phone's Dakar day was freed of it: nothing is left to do for this exchange. */
export type ExchangeDayReleased = {
  type: 'ExchangeDayReleased';
  data: { exchangeId: string; releasedAt: string };
};

export type ExchangeEvent =
  | ExchangeCreated
  | ExchangeProcessing
  | ExchangeCompleted
  | ExchangeExpired
  | ExchangeFailed
  | ExchangeRefundRequested
  | ExchangeRefunded
  | ExchangeDayReleased;

export const EXCHANGE_EVENT_TYPES: readonly ExchangeEvent['type'][] = [
  'ExchangeCreated',
  'ExchangeProcessing',
  'ExchangeCompleted',
  'ExchangeExpired',
  'ExchangeFailed',
  'ExchangeRefundRequested',
  'ExchangeRefunded',
  'ExchangeDayReleased',
];
