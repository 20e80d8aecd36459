/**
 * The exchange is a process manager: it opens with the payment the customer makes and the payout
 * it will request, both ids made by the caller with the exchange's; the payments and payouts
 * contexts then report back through the `Record*` commands.
 */
export type CreateExchange = {
  type: 'CreateExchange';
  data: {
    exchangeId: string;
    quoteId: string;
    from: string;
    to: string;
    sendAmount: number;
    fee: number;
    receiveAmount: number;
    phone: string;
    paymentId: string;
    payoutId: string;
    now: Date;
  };
};

/** The caller then requests the payout of `receiveAmount` with `to` to `phone`. */
export type RecordPaymentSucceeded = {
  type: 'RecordPaymentSucceeded';
  data: { paymentId: string; now: Date };
};

export type RecordPaymentExpired = {
  type: 'RecordPaymentExpired';
  data: { paymentId: string; now: Date };
};

export type RecordPaymentFailed = {
  type: 'RecordPaymentFailed';
  data: { paymentId: string; now: Date };
};

export type RecordPayoutSucceeded = {
  type: 'RecordPayoutSucceeded';
  data: { payoutId: string; now: Date };
};

/** `refundId`: the refund of the customer's payment the caller will request if this fails it. */
export type RecordPayoutFailed = {
  type: 'RecordPayoutFailed';
  data: { payoutId: string; refundId: string; now: Date };
};

export type RecordRefundSettled = {
  type: 'RecordRefundSettled';
  data: { refundId: string; now: Date };
};

/**
 * The exchange's amount no longer counts against its phone's Dakar day (it failed or expired):
 * recorded once the day's stream released it, after any refund was asked for, so that nothing is
 * left to do for the exchange.
 */
export type RecordDayReleased = {
  type: 'RecordDayReleased';
  data: { now: Date };
};

export type ExchangeCommand =
  | CreateExchange
  | RecordPaymentSucceeded
  | RecordPaymentExpired
  | RecordPaymentFailed
  | RecordPayoutSucceeded
  | RecordPayoutFailed
  | RecordRefundSettled
  | RecordDayReleased;
