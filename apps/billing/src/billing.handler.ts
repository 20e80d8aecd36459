import { Controller } from '@nestjs/common';
import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import {
  InvoicePayments,
  InvoicesService,
  SubscriptionsService,
} from '@xaalis/billing-application';
import {
  BILLING_INVOICE_CHECKOUT,
  BILLING_INVOICE_GET,
  BILLING_INVOICE_LIST,
  BILLING_INVOICE_PUBLIC_GET,
  BILLING_SUBSCRIPTION_CANCEL,
  BILLING_SUBSCRIPTION_CREATE,
  BILLING_SUBSCRIPTION_GET,
  BILLING_SUBSCRIPTION_LIST,
  BILLING_SUBSCRIPTION_TEST_ADVANCE,
  reply,
  topicOf,
  validateIntegrationEvent,
} from '@xaalis/contracts';

/** Subscriptions' and invoices' request-reply patterns; `reply` validates each. */
@Controller()
export class BillingHandler {
  constructor(
    private readonly subscriptions: SubscriptionsService,
    private readonly invoices: InvoicesService,
  ) {}

  @MessagePattern(BILLING_SUBSCRIPTION_CREATE)
  create(@Payload() payload: unknown) {
    return reply(BILLING_SUBSCRIPTION_CREATE, payload, (request) =>
      this.subscriptions.create(request),
    );
  }

  @MessagePattern(BILLING_SUBSCRIPTION_GET)
  get(@Payload() payload: unknown) {
    return reply(BILLING_SUBSCRIPTION_GET, payload, (request) => this.subscriptions.get(request));
  }

  @MessagePattern(BILLING_SUBSCRIPTION_LIST)
  list(@Payload() payload: unknown) {
    return reply(BILLING_SUBSCRIPTION_LIST, payload, (request) => this.subscriptions.list(request));
  }

  @MessagePattern(BILLING_SUBSCRIPTION_CANCEL)
  cancel(@Payload() payload: unknown) {
    return reply(BILLING_SUBSCRIPTION_CANCEL, payload, (request) =>
      this.subscriptions.cancel(request),
    );
  }

  @MessagePattern(BILLING_SUBSCRIPTION_TEST_ADVANCE)
  testAdvance(@Payload() payload: unknown) {
    return reply(BILLING_SUBSCRIPTION_TEST_ADVANCE, payload, (request) =>
      this.subscriptions.testAdvance(request),
    );
  }

  @MessagePattern(BILLING_INVOICE_GET)
  getInvoice(@Payload() payload: unknown) {
    return reply(BILLING_INVOICE_GET, payload, (request) => this.invoices.get(request));
  }

  @MessagePattern(BILLING_INVOICE_LIST)
  listInvoices(@Payload() payload: unknown) {
    return reply(BILLING_INVOICE_LIST, payload, (request) => this.invoices.list(request));
  }

  @MessagePattern(BILLING_INVOICE_PUBLIC_GET)
  publicInvoice(@Payload() payload: unknown) {
    return reply(BILLING_INVOICE_PUBLIC_GET, payload, (request) =>
      this.invoices.publicGet(request),
    );
  }

  @MessagePattern(BILLING_INVOICE_CHECKOUT)
  checkout(@Payload() payload: unknown) {
    return reply(BILLING_INVOICE_CHECKOUT, payload, (request) => this.invoices.checkout(request));
  }
}

/** Payments of invoices: how each ended, applied to its invoice. */
@Controller()
export class InvoicePaymentsHandler {
  constructor(private readonly payments: InvoicePayments) {}

  @EventPattern(topicOf('payment.succeeded'))
  async succeeded(@Payload() payload: unknown): Promise<void> {
    const event = validateIntegrationEvent(payload, 'payment.succeeded');
    await this.payments.succeeded(event.merchant_id, event.data.object);
  }

  @EventPattern(topicOf('payment.failed'))
  async failed(@Payload() payload: unknown): Promise<void> {
    const event = validateIntegrationEvent(payload, 'payment.failed');
    await this.payments.ended(event.merchant_id, event.data.object);
  }

  @EventPattern(topicOf('payment.expired'))
  async expired(@Payload() payload: unknown): Promise<void> {
    const event = validateIntegrationEvent(payload, 'payment.expired');
    await this.payments.ended(event.merchant_id, event.data.object);
  }
}
