import type { Mode } from '@xaalis/kernel';
import type { FeeSchedule } from './fees';
import type { Customer, CustomerProvider } from './payment.events';

/** Where the provider's session stands once started: `redirectUrl` null is an unknown outcome. */
export interface ProviderStart {
  provider: CustomerProvider;
  providerReference: string | null;
  redirectUrl: string | null;
}

/**
 * Ids, provider calls and `now` are made before the decision and come in with the command, so
 * `decide` stays pure and replayable.
 */
export type CreatePayment = {
  type: 'CreatePayment';
  data: {
    paymentId: string;
    merchantId: string;
    mode: Mode;
    merchantName: string;
    amount: number;
    description: string | null;
    clientReference: string | null;
    customer: Customer;
    successUrl: string | null;
    cancelUrl: string | null;
    metadata: Record<string, string>;
    aggregatedMerchantId: string | null;
    aggregatorMode: boolean;
    /** Set when the merchant named the provider: the session is started with the creation. */
    start: ProviderStart | null;
    fees: FeeSchedule;
    now: Date;
  };
};

/** The public pay step: the customer picked a provider (spec 3.1, last row). */
export type ChooseMethod = {
  type: 'ChooseMethod';
  data: { start: ProviderStart; customerPhone: string | null; fees: FeeSchedule; now: Date };
};

export type RecordSession = {
  type: 'RecordSession';
  data: { providerReference: string; redirectUrl: string | null; now: Date };
};

/**
 * Who says the payment settled: the provider (webhook, callback, reconciliation, sandbox page)
 * or a test helper. A provider's confirmation is money that moved, so it is recorded even after
 * our clock expired the payment; a test helper only moves an open payment.
 */
export type Trigger = 'provider' | 'test_helper';

export type ConfirmPayment = {
  type: 'ConfirmPayment';
  data: {
    trigger: Trigger;
    providerTransactionId: string | null;
    fees: FeeSchedule;
    now: Date;
  };
};

export type FailPayment = {
  type: 'FailPayment';
  data: { trigger: Trigger; reason: string; now: Date };
};

/** The scheduler expires at `expires_at`; the test helper expires at once. */
export type ExpirePayment = {
  type: 'ExpirePayment';
  data: { trigger: 'scheduler' | 'test_helper'; now: Date };
};

export type RequestRefund = {
  type: 'RequestRefund';
  data: { refundId: string; amount: number | null; now: Date };
};

export type SettleRefund = {
  type: 'SettleRefund';
  data: { refundId: string; outcome: 'succeeded' | 'failed'; reason: string | null; now: Date };
};

export type PaymentCommand =
  | CreatePayment
  | ChooseMethod
  | RecordSession
  | ConfirmPayment
  | FailPayment
  | ExpirePayment
  | RequestRefund
  | SettleRefund;
