import { fold } from '@xaalis/kernel';
import type { FeeSchedule } from './fees';
import type {
  ChooseMethod,
  ConfirmPayment,
  CreatePayment,
  ExpirePayment,
  FailPayment,
  ProviderStart,
  RecordSession,
  RequestRefund,
  SettleRefund,
} from './payment.commands';
import type {
  CustomerProvider,
  PaymentCreated,
  PaymentEvent,
  PaymentExpired,
  PaymentFailed,
  PaymentMethodChosen,
  PaymentProvider,
  PaymentSessionFound,
  PaymentSucceeded,
  RefundFailed,
  RefundRequested,
  RefundSucceeded,
} from './payment.events';
import {
  evolve,
  exists,
  initialState,
  type Payment,
  type PaymentState,
  type PaymentStatus,
} from './payment.state';

/** Fixture builders for the payment aggregate's given/when/then tests. */
export const PAYMENT_ID = 'pay_01JD0000000000000000000000';
export const OTHER_PAYMENT_ID = 'pay_01JD0000000000000000000001';
export const MERCHANT_ID = 'mer_01JD0000000000000000000000';
export const REFUND_ID = 're_01JD0000000000000000000000';
export const OTHER_REFUND_ID = 're_01JD0000000000000000000001';
export const CUSTOMER_PHONE = '+221771234567';
export const AMOUNT = 10_000;

export const T0 = new Date('2026-11-22T10:00:00.000Z');
export const MINUTE = 60_000;
/** `minutes` after creation. */
export const at = (minutes: number): Date => new Date(T0.getTime() + minutes * MINUTE);
/** Creation + 30 minutes, written out so the lifetime is checked, not recomputed. */
export const EXPIRES_AT = new Date('2026-11-22T10:30:00.000Z');

/** Distinct rates, so a fee taken from the wrong provider shows. */
export const FEES: FeeSchedule = { wave: 100, orange_money: 150, mock: 200 };
/** FEES applied to AMOUNT, by hand. */
export const FEE_AT_AMOUNT: Readonly<Record<PaymentProvider, { fee: number; net: number }>> = {
  wave: { fee: 100, net: 9_900 },
  orange_money: { fee: 150, net: 9_850 },
  mock: { fee: 200, net: 9_800 },
};

/** Test mode records the sandbox page as a path; the view adds the base URL and `cs`. */
export const sandboxPath = (provider: CustomerProvider, paymentId = PAYMENT_ID): string =>
  `/sandbox/${provider}/${paymentId}`;
export const WAVE_LIVE_URL = 'https://pay.wave.com/c/cos-1a2b3c';

export const providerStart = (overrides: Partial<ProviderStart> = {}): ProviderStart => {
  const provider = overrides.provider ?? 'wave';
  return {
    provider,
    providerReference: `${provider}-session-1`,
    redirectUrl: sandboxPath(provider),
    ...overrides,
  };
};

// Events.

export const paymentCreated = (
  overrides: Partial<PaymentCreated['data']> = {},
): PaymentCreated => ({
  type: 'PaymentCreated',
  data: {
    paymentId: PAYMENT_ID,
    merchantId: MERCHANT_ID,
    mode: 'test',
    merchantName: 'Boutique Ndiaye',
    amount: AMOUNT,
    currency: 'XOF',
    description: 'Thieboudienne x2',
    clientReference: 'order-42',
    customer: { phone: CUSTOMER_PHONE, name: 'Awa Diop' },
    successUrl: 'https://shop.sn/merci',
    cancelUrl: 'https://shop.sn/panier',
    metadata: { order: '42' },
    aggregatedMerchantId: null,
    availableProviders: ['wave', 'orange_money'],
    expiresAt: EXPIRES_AT.toISOString(),
    createdAt: T0.toISOString(),
    ...overrides,
  },
});

/** The customer picked a provider a minute after creation; fee and net follow the provider. */
export const methodChosen = (
  overrides: Partial<PaymentMethodChosen['data']> = {},
): PaymentMethodChosen => {
  const provider = overrides.provider ?? 'wave';
  return {
    type: 'PaymentMethodChosen',
    data: {
      paymentId: PAYMENT_ID,
      provider,
      providerReference: `${provider}-session-1`,
      redirectUrl: sandboxPath(provider),
      customerPhone: null,
      ...FEE_AT_AMOUNT[provider],
      chosenAt: at(1).toISOString(),
      ...overrides,
    },
  };
};

export const sessionFound = (
  overrides: Partial<PaymentSessionFound['data']> = {},
): PaymentSessionFound => ({
  type: 'PaymentSessionFound',
  data: {
    paymentId: PAYMENT_ID,
    providerReference: 'wave-session-2',
    redirectUrl: WAVE_LIVE_URL,
    foundAt: at(2).toISOString(),
    ...overrides,
  },
});

export const paymentSucceeded = (
  overrides: Partial<PaymentSucceeded['data']> = {},
): PaymentSucceeded => {
  const provider = overrides.provider ?? 'wave';
  return {
    type: 'PaymentSucceeded',
    data: {
      paymentId: PAYMENT_ID,
      provider,
      providerTransactionId: 'txn-1',
      ...FEE_AT_AMOUNT[provider],
      succeededAt: at(2).toISOString(),
      ...overrides,
    },
  };
};

export const paymentFailed = (reason = 'declined', when = at(2)): PaymentFailed => ({
  type: 'PaymentFailed',
  data: { paymentId: PAYMENT_ID, reason, failedAt: when.toISOString() },
});

export const paymentExpired = (when = EXPIRES_AT): PaymentExpired => ({
  type: 'PaymentExpired',
  data: { paymentId: PAYMENT_ID, expiredAt: when.toISOString() },
});

export const refundRequested = (
  overrides: Partial<RefundRequested['data']> = {},
): RefundRequested => ({
  type: 'RefundRequested',
  data: {
    paymentId: PAYMENT_ID,
    refundId: REFUND_ID,
    amount: AMOUNT,
    requestedAt: at(3).toISOString(),
    ...overrides,
  },
});

export const refundSucceeded = (refundId = REFUND_ID, when = at(4)): RefundSucceeded => ({
  type: 'RefundSucceeded',
  data: { paymentId: PAYMENT_ID, refundId, succeededAt: when.toISOString() },
});

export const refundFailed = (
  refundId = REFUND_ID,
  reason = 'recipient_refused',
  when = at(4),
): RefundFailed => ({
  type: 'RefundFailed',
  data: { paymentId: PAYMENT_ID, refundId, reason, failedAt: when.toISOString() },
});

// Histories: one per status.

export const newPayment = (): PaymentEvent[] => [paymentCreated()];
export const newProcessingPayment = (): PaymentEvent[] => [paymentCreated(), methodChosen()];
export const newPaidPayment = (): PaymentEvent[] => [...newProcessingPayment(), paymentSucceeded()];
export const newFailedPayment = (): PaymentEvent[] => [...newProcessingPayment(), paymentFailed()];
/** Expired while the customer was on the provider's page: the late-confirmation case. */
export const newExpiredPayment = (): PaymentEvent[] => [
  ...newProcessingPayment(),
  paymentExpired(),
];
export const newRefundedPayment = (): PaymentEvent[] => [
  ...newPaidPayment(),
  refundRequested(),
  refundSucceeded(),
];

export const HISTORY_BY_STATUS: Readonly<Record<PaymentStatus, () => PaymentEvent[]>> = {
  requires_payment_method: newPayment,
  processing: newProcessingPayment,
  succeeded: newPaidPayment,
  failed: newFailedPayment,
  expired: newExpiredPayment,
  refunded: newRefundedPayment,
};

export const stateOf = (events: readonly PaymentEvent[]): PaymentState =>
  fold(evolve, initialState(), events);

export function paymentOf(events: readonly PaymentEvent[]): Payment {
  const state = stateOf(events);
  if (!exists(state)) throw new Error('fixture: these events create no payment');
  return state;
}

// Commands.

export const createPayment = (overrides: Partial<CreatePayment['data']> = {}): CreatePayment => ({
  type: 'CreatePayment',
  data: {
    paymentId: PAYMENT_ID,
    merchantId: MERCHANT_ID,
    mode: 'test',
    merchantName: 'Boutique Ndiaye',
    amount: AMOUNT,
    description: 'Thieboudienne x2',
    clientReference: 'order-42',
    customer: { phone: CUSTOMER_PHONE, name: 'Awa Diop' },
    successUrl: 'https://shop.sn/merci',
    cancelUrl: 'https://shop.sn/panier',
    metadata: { order: '42' },
    aggregatedMerchantId: null,
    aggregatorMode: true,
    start: null,
    fees: FEES,
    now: T0,
    ...overrides,
  },
});

export const chooseMethod = (overrides: Partial<ChooseMethod['data']> = {}): ChooseMethod => ({
  type: 'ChooseMethod',
  data: { start: providerStart(), customerPhone: null, fees: FEES, now: at(1), ...overrides },
});

export const recordSession = (overrides: Partial<RecordSession['data']> = {}): RecordSession => ({
  type: 'RecordSession',
  data: {
    providerReference: 'wave-session-2',
    redirectUrl: WAVE_LIVE_URL,
    now: at(2),
    ...overrides,
  },
});

export const confirmPayment = (
  overrides: Partial<ConfirmPayment['data']> = {},
): ConfirmPayment => ({
  type: 'ConfirmPayment',
  data: {
    trigger: 'provider',
    providerTransactionId: 'txn-1',
    fees: FEES,
    now: at(2),
    ...overrides,
  },
});

export const failPayment = (overrides: Partial<FailPayment['data']> = {}): FailPayment => ({
  type: 'FailPayment',
  data: { trigger: 'provider', reason: 'declined', now: at(2), ...overrides },
});

export const expirePayment = (overrides: Partial<ExpirePayment['data']> = {}): ExpirePayment => ({
  type: 'ExpirePayment',
  data: { trigger: 'scheduler', now: EXPIRES_AT, ...overrides },
});

export const requestRefund = (overrides: Partial<RequestRefund['data']> = {}): RequestRefund => ({
  type: 'RequestRefund',
  data: { refundId: REFUND_ID, amount: null, now: at(3), ...overrides },
});

export const settleRefund = (overrides: Partial<SettleRefund['data']> = {}): SettleRefund => ({
  type: 'SettleRefund',
  data: { refundId: REFUND_ID, outcome: 'succeeded', reason: null, now: at(4), ...overrides },
});
