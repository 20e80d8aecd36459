import {
  assertNever,
  DomainError,
  invalidState,
  MAX_PAYMENT_AMOUNT,
  notFound,
  validationError,
  type Decider,
} from '@xaalis/kernel';
import { feeFor } from './fees';
import type {
  ChooseMethod,
  ConfirmPayment,
  CreatePayment,
  ExpirePayment,
  FailPayment,
  PaymentCommand,
  ProviderStart,
  RecordSession,
  RequestRefund,
  SettleRefund,
} from './payment.commands';
import type { CustomerProvider, PaymentEvent } from './payment.events';
import {
  evolve,
  exists,
  initialState,
  isOpen,
  refundedOrPending,
  type Payment,
  type PaymentState,
} from './payment.state';
import { availableProviders } from './providers';

export const PAYMENT_LIFETIME_MS = 30 * 60_000;

function requirePayment(state: PaymentState): Payment {
  if (!exists(state)) throw notFound('payment');
  return state;
}

export const aggregatedIdentityRequired = () =>
  new DomainError(
    'aggregated_identity_required',
    'Live Wave payments need an aggregated merchant identity: set it under provider identities first.',
  );

function methodChosen(
  payment: Pick<Payment, 'paymentId' | 'amount'>,
  start: ProviderStart,
  customerPhone: string | null,
  fees: ChooseMethod['data']['fees'],
  now: Date,
): PaymentEvent {
  const { fee, net } = feeFor(fees, start.provider, payment.amount);
  return {
    type: 'PaymentMethodChosen',
    data: {
      paymentId: payment.paymentId,
      provider: start.provider,
      providerReference: start.providerReference,
      redirectUrl: start.redirectUrl,
      customerPhone,
      fee,
      net,
      chosenAt: now.toISOString(),
    },
  };
}

function createPayment({ data }: CreatePayment, state: PaymentState): PaymentEvent[] {
  // Its id is the caller's, fixed by the idempotency key: an existing payment is this create's
  // first run (which died before answering), so there is nothing more to do.
  if (exists(state)) return [];
  if (!Number.isSafeInteger(data.amount) || data.amount < 1 || data.amount > MAX_PAYMENT_AMOUNT) {
    throw validationError([
      { field: 'amount', issue: `must be an integer from 1 to ${MAX_PAYMENT_AMOUNT}` },
    ]);
  }
  const providers = availableProviders(data.mode, data.aggregatorMode, data.aggregatedMerchantId);
  if (data.start && !providers.includes(data.start.provider)) {
    throw aggregatedIdentityRequired();
  }
  const created: PaymentEvent = {
    type: 'PaymentCreated',
    data: {
      paymentId: data.paymentId,
      merchantId: data.merchantId,
      mode: data.mode,
      merchantName: data.merchantName,
      amount: data.amount,
      currency: 'XOF',
      description: data.description,
      clientReference: data.clientReference,
      customer: data.customer,
      successUrl: data.successUrl,
      cancelUrl: data.cancelUrl,
      metadata: data.metadata,
      aggregatedMerchantId: data.aggregatedMerchantId,
      availableProviders: providers,
      expiresAt: new Date(data.now.getTime() + PAYMENT_LIFETIME_MS).toISOString(),
      createdAt: data.now.toISOString(),
    },
  };
  if (!data.start) return [created];
  return [created, methodChosen(data, data.start, data.customer.phone, data.fees, data.now)];
}

/**
 * Before calling a provider: may this payment take this method now? The decision proper
 * (`chooseMethod`) checks again on the state it appends to.
 */
export function assertCanChooseMethod(
  payment: Payment,
  provider: CustomerProvider,
  now: Date,
): 'start' | 'already_started' {
  if (isOpen(payment) && now.getTime() >= Date.parse(payment.expiresAt)) {
    throw invalidState('The payment has expired.', { status: 'expired' });
  }
  switch (payment.status) {
    case 'requires_payment_method':
      if (!payment.availableProviders.includes(provider)) {
        throw validationError(
          [{ field: 'provider', issue: `must be one of ${payment.availableProviders.join(', ')}` }],
          'This provider is not available for this payment.',
        );
      }
      return 'start';
    case 'processing':
      if (payment.provider === provider) return 'already_started';
      throw invalidState(`The payment is already in progress with ${payment.provider}.`, {
        status: payment.status,
      });
    case 'succeeded':
    case 'failed':
    case 'expired':
    case 'refunded':
      throw invalidState(`The payment is ${payment.status}.`, { status: payment.status });
    default:
      return assertNever(payment.status);
  }
}

function chooseMethod({ data }: ChooseMethod, state: PaymentState): PaymentEvent[] {
  const payment = requirePayment(state);
  if (assertCanChooseMethod(payment, data.start.provider, data.now) === 'already_started') {
    return [];
  }
  return [methodChosen(payment, data.start, data.customerPhone, data.fees, data.now)];
}

function recordSession({ data }: RecordSession, state: PaymentState): PaymentEvent[] {
  const payment = requirePayment(state);
  if (payment.status !== 'processing') return [];
  if (
    payment.providerReference === data.providerReference &&
    (data.redirectUrl === null || payment.redirectUrl === data.redirectUrl)
  ) {
    return [];
  }
  return [
    {
      type: 'PaymentSessionFound',
      data: {
        paymentId: payment.paymentId,
        providerReference: data.providerReference,
        redirectUrl: data.redirectUrl,
        foundAt: data.now.toISOString(),
      },
    },
  ];
}

function confirmPayment({ data }: ConfirmPayment, state: PaymentState): PaymentEvent[] {
  const payment = requirePayment(state);
  switch (payment.status) {
    case 'succeeded':
    case 'refunded':
      return [];
    case 'expired':
      // Our clock expired it while the customer was paying: the money moved, so it counts.
      if (data.trigger === 'provider') break;
      throw invalidState('The payment has expired.', { status: payment.status });
    case 'failed':
      throw invalidState('The payment has failed.', { status: payment.status });
    case 'requires_payment_method':
    case 'processing':
      break;
    default:
      return assertNever(payment.status);
  }
  const provider = payment.provider ?? 'mock';
  const { fee, net } = feeFor(data.fees, provider, payment.amount);
  return [
    {
      type: 'PaymentSucceeded',
      data: {
        paymentId: payment.paymentId,
        provider,
        providerTransactionId: data.providerTransactionId,
        fee,
        net,
        succeededAt: data.now.toISOString(),
      },
    },
  ];
}

function failPayment({ data }: FailPayment, state: PaymentState): PaymentEvent[] {
  const payment = requirePayment(state);
  if (payment.status === 'failed') return [];
  if (!isOpen(payment)) {
    throw invalidState(`The payment is ${payment.status}.`, { status: payment.status });
  }
  return [
    {
      type: 'PaymentFailed',
      data: { paymentId: payment.paymentId, reason: data.reason, failedAt: data.now.toISOString() },
    },
  ];
}

function expirePayment({ data }: ExpirePayment, state: PaymentState): PaymentEvent[] {
  const payment = requirePayment(state);
  if (payment.status === 'expired') return [];
  if (!isOpen(payment)) {
    if (data.trigger === 'scheduler') return [];
    throw invalidState(`The payment is ${payment.status}.`, { status: payment.status });
  }
  if (data.trigger === 'scheduler' && data.now.getTime() < Date.parse(payment.expiresAt)) {
    return [];
  }
  return [
    {
      type: 'PaymentExpired',
      data: { paymentId: payment.paymentId, expiredAt: data.now.toISOString() },
    },
  ];
}

function requestRefund({ data }: RequestRefund, state: PaymentState): PaymentEvent[] {
  const payment = requirePayment(state);
  if (payment.refunds.some((refund) => refund.refundId === data.refundId)) return [];
  if (payment.status !== 'succeeded') {
    throw invalidState(`Only a succeeded payment can be refunded; this one is ${payment.status}.`, {
      status: payment.status,
    });
  }
  const left = payment.amount - refundedOrPending(payment);
  if (left === 0) throw invalidState('The payment is already being refunded in full.');
  const amount = data.amount ?? left;
  if (!Number.isSafeInteger(amount) || amount < 1 || amount > left) {
    throw validationError([
      {
        field: 'amount',
        issue: `must be an integer from 1 to ${left} (the amount left to refund)`,
      },
    ]);
  }
  return [
    {
      type: 'RefundRequested',
      data: {
        paymentId: payment.paymentId,
        refundId: data.refundId,
        amount,
        requestedAt: data.now.toISOString(),
      },
    },
  ];
}

function settleRefund({ data }: SettleRefund, state: PaymentState): PaymentEvent[] {
  const payment = requirePayment(state);
  const refund = payment.refunds.find((candidate) => candidate.refundId === data.refundId);
  if (!refund) throw notFound('refund');
  if (refund.status !== 'pending') return [];
  const at = data.now.toISOString();
  return data.outcome === 'succeeded'
    ? [
        {
          type: 'RefundSucceeded',
          data: { paymentId: payment.paymentId, refundId: refund.refundId, succeededAt: at },
        },
      ]
    : [
        {
          type: 'RefundFailed',
          data: {
            paymentId: payment.paymentId,
            refundId: refund.refundId,
            reason: data.reason ?? 'failed',
            failedAt: at,
          },
        },
      ];
}

export function decide(command: PaymentCommand, state: PaymentState): PaymentEvent[] {
  switch (command.type) {
    case 'CreatePayment':
      return createPayment(command, state);
    case 'ChooseMethod':
      return chooseMethod(command, state);
    case 'RecordSession':
      return recordSession(command, state);
    case 'ConfirmPayment':
      return confirmPayment(command, state);
    case 'FailPayment':
      return failPayment(command, state);
    case 'ExpirePayment':
      return expirePayment(command, state);
    case 'RequestRefund':
      return requestRefund(command, state);
    case 'SettleRefund':
      return settleRefund(command, state);
    default:
      return assertNever(command);
  }
}

export const paymentDecider: Decider<PaymentState, PaymentCommand, PaymentEvent> = {
  initialState,
  evolve,
  decide,
};
