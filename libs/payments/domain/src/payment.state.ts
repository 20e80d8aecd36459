import {
  assertNever,
  type Currency,
  type Mode,
  type PaymentStatus,
  type RefundStatus,
} from '@xaalis/kernel';
import type { Customer, CustomerProvider, PaymentEvent, PaymentProvider } from './payment.events';

// The statuses are shared with the gateway and the messages: defined once, in the kernel.
export { PAYMENT_STATUSES, type PaymentStatus, type RefundStatus } from '@xaalis/kernel';

export interface RefundState {
  refundId: string;
  amount: number;
  status: RefundStatus;
  failureReason: string | null;
  createdAt: string;
  settledAt: string | null;
}

export interface Payment {
  paymentId: string;
  merchantId: string;
  mode: Mode;
  merchantName: string;
  amount: number;
  currency: Currency;
  fee: number;
  net: number;
  status: PaymentStatus;
  provider: PaymentProvider | null;
  providerReference: string | null;
  /** The provider's (or sandbox's) page for the customer; null until known. */
  redirectUrl: string | null;
  description: string | null;
  clientReference: string | null;
  customer: Customer;
  successUrl: string | null;
  cancelUrl: string | null;
  metadata: Record<string, string>;
  aggregatedMerchantId: string | null;
  availableProviders: CustomerProvider[];
  failureReason: string | null;
  providerTransactionId: string | null;
  expiresAt: string;
  succeededAt: string | null;
  createdAt: string;
  refunds: RefundState[];
}

export type PaymentState = { status: 'absent' } | Payment;

export const initialState = (): PaymentState => ({ status: 'absent' });

export const exists = (state: PaymentState): state is Payment => state.status !== 'absent';

/** Payments the customer can still pay: the only ones that can expire or change method. */
export const isOpen = (payment: Payment): boolean =>
  payment.status === 'requires_payment_method' || payment.status === 'processing';

/** What refunds already claim: pending ones count, so two refunds can never exceed the amount. */
export const refundedOrPending = (payment: Payment): number =>
  payment.refunds
    .filter((refund) => refund.status !== 'failed')
    .reduce((sum, refund) => sum + refund.amount, 0);

export const amountRefunded = (payment: Payment): number =>
  payment.refunds
    .filter((refund) => refund.status === 'succeeded')
    .reduce((sum, refund) => sum + refund.amount, 0);

const updateRefund = (
  payment: Payment,
  refundId: string,
  change: Partial<RefundState>,
): RefundState[] =>
  payment.refunds.map((refund) =>
    refund.refundId === refundId ? { ...refund, ...change } : refund,
  );

export function evolve(state: PaymentState, event: PaymentEvent): PaymentState {
  if (event.type === 'PaymentCreated') {
    const data = event.data;
    return {
      paymentId: data.paymentId,
      merchantId: data.merchantId,
      mode: data.mode,
      merchantName: data.merchantName,
      amount: data.amount,
      currency: data.currency,
      fee: 0,
      net: data.amount,
      status: 'requires_payment_method',
      provider: null,
      providerReference: null,
      redirectUrl: null,
      description: data.description,
      clientReference: data.clientReference,
      customer: data.customer,
      successUrl: data.successUrl,
      cancelUrl: data.cancelUrl,
      metadata: data.metadata,
      aggregatedMerchantId: data.aggregatedMerchantId,
      availableProviders: data.availableProviders,
      failureReason: null,
      providerTransactionId: null,
      expiresAt: data.expiresAt,
      succeededAt: null,
      createdAt: data.createdAt,
      refunds: [],
    };
  }
  if (!exists(state)) return state;
  switch (event.type) {
    case 'PaymentMethodChosen': {
      const data = event.data;
      return {
        ...state,
        status: 'processing',
        provider: data.provider,
        providerReference: data.providerReference,
        redirectUrl: data.redirectUrl,
        fee: data.fee,
        net: data.net,
        customer: { ...state.customer, phone: data.customerPhone ?? state.customer.phone },
      };
    }
    case 'PaymentSessionFound':
      return {
        ...state,
        providerReference: event.data.providerReference,
        redirectUrl: event.data.redirectUrl ?? state.redirectUrl,
      };
    case 'PaymentSucceeded':
      return {
        ...state,
        status: 'succeeded',
        provider: event.data.provider,
        providerTransactionId: event.data.providerTransactionId,
        fee: event.data.fee,
        net: event.data.net,
        failureReason: null,
        succeededAt: event.data.succeededAt,
      };
    case 'PaymentFailed':
      return { ...state, status: 'failed', failureReason: event.data.reason };
    case 'PaymentExpired':
      return { ...state, status: 'expired' };
    case 'RefundRequested':
      return {
        ...state,
        refunds: [
          ...state.refunds,
          {
            refundId: event.data.refundId,
            amount: event.data.amount,
            status: 'pending',
            failureReason: null,
            createdAt: event.data.requestedAt,
            settledAt: null,
          },
        ],
      };
    case 'RefundSucceeded': {
      // CONTRACT 5: the payment stays `succeeded` while refunds reach the customer, and is
      // `refunded` once they add up to its whole amount.
      const settled: Payment = {
        ...state,
        refunds: updateRefund(state, event.data.refundId, {
          status: 'succeeded',
          settledAt: event.data.succeededAt,
        }),
      };
      return amountRefunded(settled) === settled.amount
        ? { ...settled, status: 'refunded' }
        : settled;
    }
    case 'RefundFailed':
      return {
        ...state,
        refunds: updateRefund(state, event.data.refundId, {
          status: 'failed',
          failureReason: event.data.reason,
          settledAt: event.data.failedAt,
        }),
      };
    default:
      return assertNever(event);
  }
}
