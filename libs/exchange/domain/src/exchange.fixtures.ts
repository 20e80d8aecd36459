import type { CreateExchange } from './exchange.commands';
import type { ExchangeCreated, ExchangeEvent } from './exchange.events';

/** Fixture builders for the exchange's given/when/then tests. */
export const EXCHANGE_ID = 'ex_01JD0000000000000000000000';
export const QUOTE_ID = 'exq_01JD0000000000000000000000';
export const PAYMENT_ID = 'pay_01JD0000000000000000000000';
export const PAYOUT_ID = 'po_01JD0000000000000000000000';
export const REFUND_ID = 're_01JD0000000000000000000000';
export const PHONE = '+221771234567';
export const T0 = new Date('2026-11-22T10:00:00.000Z');
export const T1 = new Date('2026-11-22T10:05:00.000Z');
const at = T1.toISOString();

export const createExchange = (
  overrides: Partial<CreateExchange['data']> = {},
): CreateExchange => ({
  type: 'CreateExchange',
  data: {
    exchangeId: EXCHANGE_ID,
    quoteId: QUOTE_ID,
    from: 'wave',
    to: 'orange_money',
    sendAmount: 10_000,
    fee: 100,
    receiveAmount: 9_900,
    phone: PHONE,
    paymentId: PAYMENT_ID,
    payoutId: PAYOUT_ID,
    now: T0,
    ...overrides,
  },
});

export const paymentSucceeded = (paymentId = PAYMENT_ID) =>
  ({ type: 'RecordPaymentSucceeded', data: { paymentId, now: T1 } }) as const;
export const paymentExpired = (paymentId = PAYMENT_ID) =>
  ({ type: 'RecordPaymentExpired', data: { paymentId, now: T1 } }) as const;
export const paymentFailed = (paymentId = PAYMENT_ID) =>
  ({ type: 'RecordPaymentFailed', data: { paymentId, now: T1 } }) as const;
export const payoutSucceeded = (payoutId = PAYOUT_ID) =>
  ({ type: 'RecordPayoutSucceeded', data: { payoutId, now: T1 } }) as const;
export const payoutFailed = (payoutId = PAYOUT_ID) =>
  ({ type: 'RecordPayoutFailed', data: { payoutId, refundId: REFUND_ID, now: T1 } }) as const;
export const refundSettled = (refundId = REFUND_ID) =>
  ({ type: 'RecordRefundSettled', data: { refundId, now: T1 } }) as const;

export const dayReleased = () => ({ type: 'RecordDayReleased', data: { now: T1 } }) as const;

export const exchangeCreated = (
  overrides: Partial<ExchangeCreated['data']> = {},
): ExchangeCreated => ({
  type: 'ExchangeCreated',
  data: {
    exchangeId: EXCHANGE_ID,
    quoteId: QUOTE_ID,
    from: 'wave',
    to: 'orange_money',
    sendAmount: 10_000,
    fee: 100,
    receiveAmount: 9_900,
    phone: PHONE,
    paymentId: PAYMENT_ID,
    payoutId: PAYOUT_ID,
    createdAt: T0.toISOString(),
    ...overrides,
  },
});

export const processing: ExchangeEvent = {
  type: 'ExchangeProcessing',
  data: { exchangeId: EXCHANGE_ID, paidAt: at },
};
export const completed: ExchangeEvent = {
  type: 'ExchangeCompleted',
  data: { exchangeId: EXCHANGE_ID, completedAt: at },
};
export const expired: ExchangeEvent = {
  type: 'ExchangeExpired',
  data: { exchangeId: EXCHANGE_ID, expiredAt: at },
};
export const failed = (reason: 'payment_failed' | 'payout_failed'): ExchangeEvent => ({
  type: 'ExchangeFailed',
  data: { exchangeId: EXCHANGE_ID, reason, failedAt: at },
});
export const refundRequested: ExchangeEvent = {
  type: 'ExchangeRefundRequested',
  data: {
    exchangeId: EXCHANGE_ID,
    paymentId: PAYMENT_ID,
    refundId: REFUND_ID,
    amount: 10_000,
    requestedAt: at,
  },
};
export const refunded: ExchangeEvent = {
  type: 'ExchangeRefunded',
  data: { exchangeId: EXCHANGE_ID, refundId: REFUND_ID, refundedAt: at },
};

export const dayReleasedEvent: ExchangeEvent = {
  type: 'ExchangeDayReleased',
  data: { exchangeId: EXCHANGE_ID, releasedAt: at },
};

/** Histories, by where the exchange stands. */
export const newExchange = (): ExchangeEvent[] => [exchangeCreated()];
export const processingExchange = (): ExchangeEvent[] => [exchangeCreated(), processing];
export const completedExchange = (): ExchangeEvent[] => [...processingExchange(), completed];
export const expiredExchange = (): ExchangeEvent[] => [exchangeCreated(), expired];
export const unpaidFailedExchange = (): ExchangeEvent[] => [
  exchangeCreated(),
  failed('payment_failed'),
];
export const refundingExchange = (): ExchangeEvent[] => [
  ...processingExchange(),
  failed('payout_failed'),
  refundRequested,
];
export const refundedExchange = (): ExchangeEvent[] => [...refundingExchange(), refunded];
