import { BILLING_REQUESTS } from './billing/billing.requests';
import { EXCHANGE_REQUESTS } from './exchange/exchange.requests';
import { AGENT_WALLET_REQUESTS } from './payouts/agent-wallets.requests';
import type { RequestContract } from './shared/request-contract';
import { ListRequest } from './shared/merchant-scope';
import {
  CreatePaymentRequest,
  ListPaymentsRequest,
  PaymentRef,
  PaymentTestHelperRequest,
  ProviderNotificationReply,
  ProviderNotificationRequest,
  PublicPaymentRef,
  PublicPayRequest,
  SandboxActionRequest,
  SandboxRequest,
} from './payments/payments.messages';
import {
  CustomerPaymentReply,
  PaymentListReply,
  PaymentReply,
  SandboxPageReply,
} from './payments/payments.replies';
import {
  BalanceReply,
  BalanceRequest,
  LedgerHoldEndRequest,
  LedgerHoldReply,
  LedgerHoldRequest,
} from './payouts/payouts.messages';
import {
  AgentKeyFindReply,
  AgentKeyFindRequest,
  PAYOUTS_AGENT_KEY_FIND,
} from './payouts/agent-keys.messages';
import {
  CreateRefundRequest,
  ListRefundsRequest,
  RefundListReply,
  RefundRef,
  RefundReply,
} from './payments/refunds.messages';
import {
  CreateWebhookEndpointRequest,
  ListWebhookEventsRequest,
  SetDefaultWebhookEndpointRequest,
  UpdateWebhookEndpointRequest,
  WebhookDeliveryListReply,
  WebhookDeliveryRef,
  WebhookDeliveryReply,
  WebhookEndpointListReply,
  WebhookEndpointReply,
  WebhookEventListReply,
  WebhookEventRef,
  WebhookEventReply,
  WebhookSecretReply,
  WebhookSecretRequest,
} from './webhooks/webhooks.messages';

export const PAYOUTS_BALANCE_GET = 'payouts.balance.get';
export const PAYOUTS_LEDGER_HOLD = 'payouts.ledger.hold';
export const PAYOUTS_LEDGER_SETTLE = 'payouts.ledger.settle';
export const PAYOUTS_LEDGER_RELEASE = 'payouts.ledger.release';
export const PAYMENTS_CREATE = 'payments.payment.create';
export const PAYMENTS_GET = 'payments.payment.get';
export const PAYMENTS_LIST = 'payments.payment.list';
export const PAYMENTS_TEST_HELPER = 'payments.test_helpers.apply';
export const PAYMENTS_PUBLIC_GET = 'payments.public.get';
export const PAYMENTS_PUBLIC_PAY = 'payments.public.pay';
export const PAYMENTS_SANDBOX_GET = 'payments.sandbox.get';
export const PAYMENTS_SANDBOX_ACT = 'payments.sandbox.act';
export const PAYMENTS_PROVIDER_NOTIFY = 'payments.provider.notify';
export const PAYMENTS_REFUND_CREATE = 'payments.refund.create';
export const PAYMENTS_REFUND_GET = 'payments.refund.get';
export const PAYMENTS_REFUND_LIST = 'payments.refund.list';
export const GATEWAY_WEBHOOK_SECRET_GET = 'gateway.webhook_secret.get';
export const WEBHOOKS_ENDPOINT_CREATE = 'webhooks.endpoint.create';
export const WEBHOOKS_ENDPOINT_LIST = 'webhooks.endpoint.list';
export const WEBHOOKS_ENDPOINT_UPDATE = 'webhooks.endpoint.update';
export const WEBHOOKS_ENDPOINT_SET_DEFAULT = 'webhooks.endpoint.set_default';
export const WEBHOOKS_DELIVERY_LIST = 'webhooks.delivery.list';
export const WEBHOOKS_DELIVERY_RETRY = 'webhooks.delivery.retry';
export const WEBHOOKS_EVENT_GET = 'webhooks.event.get';
export const WEBHOOKS_EVENT_LIST = 'webhooks.event.list';

/**
 * Every request-reply pattern, with its owner and its request and reply classes. A pattern is
 * `<owner>.<noun>.<verb>`; on Kafka it is the request topic and `<pattern>.reply` the reply topic.
 */
export const REQUESTS = {
  ...BILLING_REQUESTS,
  ...EXCHANGE_REQUESTS,
  ...AGENT_WALLET_REQUESTS,
  [PAYOUTS_BALANCE_GET]: {
    owner: 'payouts',
    callers: ['gateway'],
    request: BalanceRequest,
    reply: BalanceReply,
  } satisfies RequestContract<BalanceRequest, BalanceReply>,
  [PAYOUTS_LEDGER_HOLD]: {
    owner: 'payouts',
    callers: ['payments'],
    request: LedgerHoldRequest,
    reply: LedgerHoldReply,
  } satisfies RequestContract<LedgerHoldRequest, LedgerHoldReply>,
  [PAYOUTS_LEDGER_SETTLE]: {
    owner: 'payouts',
    callers: ['payments'],
    request: LedgerHoldEndRequest,
    reply: LedgerHoldReply,
  } satisfies RequestContract<LedgerHoldEndRequest, LedgerHoldReply>,
  [PAYOUTS_LEDGER_RELEASE]: {
    owner: 'payouts',
    callers: ['payments'],
    request: LedgerHoldEndRequest,
    reply: LedgerHoldReply,
  } satisfies RequestContract<LedgerHoldEndRequest, LedgerHoldReply>,
  [PAYOUTS_AGENT_KEY_FIND]: {
    owner: 'payouts',
    callers: ['gateway'],
    request: AgentKeyFindRequest,
    reply: AgentKeyFindReply,
  } satisfies RequestContract<AgentKeyFindRequest, AgentKeyFindReply>,
  [PAYMENTS_CREATE]: {
    owner: 'payments',
    // Billing and the exchange: an invoice, an exchange, is paid by a payment they make and follow.
    callers: ['gateway', 'billing', 'exchange'],
    request: CreatePaymentRequest,
    reply: PaymentReply,
  } satisfies RequestContract<CreatePaymentRequest, PaymentReply>,
  [PAYMENTS_GET]: {
    owner: 'payments',
    // Billing and the exchange: an invoice, an exchange, is paid by a payment they make and follow.
    callers: ['gateway', 'billing', 'exchange'],
    request: PaymentRef,
    reply: PaymentReply,
  } satisfies RequestContract<PaymentRef, PaymentReply>,
  [PAYMENTS_LIST]: {
    owner: 'payments',
    callers: ['gateway'],
    request: ListPaymentsRequest,
    reply: PaymentListReply,
  } satisfies RequestContract<ListPaymentsRequest, PaymentListReply>,
  [PAYMENTS_TEST_HELPER]: {
    owner: 'payments',
    callers: ['gateway', 'exchange'],
    request: PaymentTestHelperRequest,
    reply: PaymentReply,
  } satisfies RequestContract<PaymentTestHelperRequest, PaymentReply>,
  [PAYMENTS_PUBLIC_GET]: {
    owner: 'payments',
    callers: ['gateway'],
    request: PublicPaymentRef,
    reply: CustomerPaymentReply,
  } satisfies RequestContract<PublicPaymentRef, CustomerPaymentReply>,
  [PAYMENTS_PUBLIC_PAY]: {
    owner: 'payments',
    callers: ['gateway'],
    request: PublicPayRequest,
    reply: CustomerPaymentReply,
  } satisfies RequestContract<PublicPayRequest, CustomerPaymentReply>,
  [PAYMENTS_SANDBOX_GET]: {
    owner: 'payments',
    callers: ['gateway'],
    request: SandboxRequest,
    reply: SandboxPageReply,
  } satisfies RequestContract<SandboxRequest, SandboxPageReply>,
  [PAYMENTS_SANDBOX_ACT]: {
    owner: 'payments',
    callers: ['gateway'],
    request: SandboxActionRequest,
    reply: CustomerPaymentReply,
  } satisfies RequestContract<SandboxActionRequest, CustomerPaymentReply>,
  [PAYMENTS_PROVIDER_NOTIFY]: {
    owner: 'payments',
    callers: ['gateway'],
    request: ProviderNotificationRequest,
    reply: ProviderNotificationReply,
  } satisfies RequestContract<ProviderNotificationRequest, ProviderNotificationReply>,
  [PAYMENTS_REFUND_CREATE]: {
    owner: 'payments',
    callers: ['gateway', 'exchange'],
    request: CreateRefundRequest,
    reply: RefundReply,
  } satisfies RequestContract<CreateRefundRequest, RefundReply>,
  [PAYMENTS_REFUND_GET]: {
    owner: 'payments',
    callers: ['gateway'],
    request: RefundRef,
    reply: RefundReply,
  } satisfies RequestContract<RefundRef, RefundReply>,
  [PAYMENTS_REFUND_LIST]: {
    owner: 'payments',
    callers: ['gateway'],
    request: ListRefundsRequest,
    reply: RefundListReply,
  } satisfies RequestContract<ListRefundsRequest, RefundListReply>,
  [GATEWAY_WEBHOOK_SECRET_GET]: {
    owner: 'gateway',
    callers: ['webhooks'],
    request: WebhookSecretRequest,
    reply: WebhookSecretReply,
  } satisfies RequestContract<WebhookSecretRequest, WebhookSecretReply>,
  [WEBHOOKS_ENDPOINT_CREATE]: {
    owner: 'webhooks',
    callers: ['gateway'],
    request: CreateWebhookEndpointRequest,
    reply: WebhookEndpointReply,
  } satisfies RequestContract<CreateWebhookEndpointRequest, WebhookEndpointReply>,
  [WEBHOOKS_ENDPOINT_LIST]: {
    owner: 'webhooks',
    callers: ['gateway'],
    request: ListRequest,
    reply: WebhookEndpointListReply,
  } satisfies RequestContract<ListRequest, WebhookEndpointListReply>,
  [WEBHOOKS_ENDPOINT_UPDATE]: {
    owner: 'webhooks',
    callers: ['gateway'],
    request: UpdateWebhookEndpointRequest,
    reply: WebhookEndpointReply,
  } satisfies RequestContract<UpdateWebhookEndpointRequest, WebhookEndpointReply>,
  [WEBHOOKS_ENDPOINT_SET_DEFAULT]: {
    owner: 'webhooks',
    callers: ['gateway'],
    request: SetDefaultWebhookEndpointRequest,
    reply: WebhookEndpointReply,
  } satisfies RequestContract<SetDefaultWebhookEndpointRequest, WebhookEndpointReply>,
  [WEBHOOKS_DELIVERY_LIST]: {
    owner: 'webhooks',
    callers: ['gateway'],
    request: ListRequest,
    reply: WebhookDeliveryListReply,
  } satisfies RequestContract<ListRequest, WebhookDeliveryListReply>,
  [WEBHOOKS_DELIVERY_RETRY]: {
    owner: 'webhooks',
    callers: ['gateway'],
    request: WebhookDeliveryRef,
    reply: WebhookDeliveryReply,
  } satisfies RequestContract<WebhookDeliveryRef, WebhookDeliveryReply>,
  [WEBHOOKS_EVENT_GET]: {
    owner: 'webhooks',
    // Billing: a test advance answers once its events are recorded (issue 20).
    callers: ['gateway', 'billing'],
    request: WebhookEventRef,
    reply: WebhookEventReply,
  } satisfies RequestContract<WebhookEventRef, WebhookEventReply>,
  [WEBHOOKS_EVENT_LIST]: {
    owner: 'webhooks',
    callers: ['gateway'],
    request: ListWebhookEventsRequest,
    reply: WebhookEventListReply,
  } satisfies RequestContract<ListWebhookEventsRequest, WebhookEventListReply>,
} as const;

export type RequestPattern = keyof typeof REQUESTS;
export type RequestOf<Pattern extends RequestPattern> = InstanceType<
  (typeof REQUESTS)[Pattern]['request']
>;
export type ReplyOf<Pattern extends RequestPattern> = InstanceType<
  (typeof REQUESTS)[Pattern]['reply']
>;

export const REQUEST_PATTERNS = Object.keys(REQUESTS) as RequestPattern[];
