import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, CONFIG, type XaalisConfig } from '@xaalis/config';
import type {
  CustomerPaymentReply,
  PublicPaymentRef,
  PublicPayRequest,
  SandboxActionRequest,
  SandboxPageReply,
  SandboxRequest,
} from '@xaalis/contracts';
import { newId, notFound, type Clock } from '@xaalis/kernel';
import {
  assertCanChooseMethod,
  DECLINED_TEST_PHONE,
  toCustomerView,
  type FeeSchedule,
  type Payment,
  type PaymentCommand,
} from '@xaalis/payments-domain';
import { PaymentCommands } from './payment.commands.service';
import { PaymentLinker } from './payment-links';
import { PaymentQueries } from './payment.queries';
import { ProviderStarter } from './provider-starter';

/**
 * The customer's side of a payment behind the bus patterns: the hosted page's read, the pay step
 * (spec 4.1) and the test-mode sandbox's page and buttons. The customer's credential is the
 * payment's client secret, never a key.
 */
@Injectable()
export class CustomerPaymentsService {
  private readonly fees: FeeSchedule;

  constructor(
    private readonly commands: PaymentCommands,
    private readonly queries: PaymentQueries,
    private readonly linker: PaymentLinker,
    private readonly starter: ProviderStarter,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CONFIG) config: XaalisConfig,
  ) {
    this.fees = config.feeBps;
  }

  private customerView(payment: Payment): CustomerPaymentReply {
    return toCustomerView(payment, this.linker.links(payment));
  }

  /** The customer's credential is the client secret; a wrong one is as unknown as no payment. */
  private async publicPayment(request: PublicPaymentRef): Promise<Payment> {
    const payment = await this.queries.find(request.payment_id);
    if (!payment || !this.linker.isClientSecret(request.payment_id, request.client_secret)) {
      throw notFound('payment');
    }
    return payment;
  }

  async publicGet(request: PublicPaymentRef): Promise<CustomerPaymentReply> {
    return this.customerView(await this.publicPayment(request));
  }

  /** Spec 4.1, the public pay step: the customer picked a provider. */
  async pay(request: PublicPayRequest): Promise<CustomerPaymentReply> {
    const payment = await this.publicPayment(request);
    const now = this.clock.now();
    if (assertCanChooseMethod(payment, request.provider, now) === 'already_started') {
      return this.customerView(await this.retryUnknownStart(payment));
    }
    const phone = request.phone ?? payment.customer.phone;
    const start = await this.starter.start(payment, request.provider, phone);
    const outcome = await this.commands.run(payment.paymentId, {
      type: 'ChooseMethod',
      data: { start, customerPhone: request.phone ?? null, fees: this.fees, now },
    });
    return this.customerView(outcome.payment);
  }

  /**
   * The provider's answer to the start was lost (timeout, 429, 5xx) and reconciliation has not
   * found a session yet: the customer asking again starts it again. Wave's idempotency key is the
   * payment id, so a session created the first time is returned rather than doubled.
   */
  private async retryUnknownStart(payment: Payment): Promise<Payment> {
    if (payment.mode !== 'live' || payment.redirectUrl !== null || payment.provider === null) {
      return payment;
    }
    if (payment.provider === 'mock') return payment;
    const start = await this.starter.start(payment, payment.provider, payment.customer.phone);
    if (start.providerReference === null) return payment;
    const outcome = await this.commands.run(payment.paymentId, {
      type: 'RecordSession',
      data: {
        providerReference: start.providerReference,
        redirectUrl: start.redirectUrl,
        now: this.clock.now(),
      },
    });
    return outcome.payment;
  }

  private async sandboxPayment(request: SandboxRequest): Promise<Payment> {
    const payment = await this.publicPayment(request);
    // Live payments never have a sandbox; a sandbox URL for another provider is not this page.
    if (payment.mode !== 'test' || payment.provider !== request.provider) throw notFound('payment');
    return payment;
  }

  async sandboxPage(request: SandboxRequest): Promise<SandboxPageReply> {
    const payment = await this.sandboxPayment(request);
    return {
      id: payment.paymentId,
      amount: payment.amount,
      description: payment.description,
      merchant_name: payment.merchantName,
      provider: request.provider,
      status: payment.status,
    };
  }

  /**
   * The sandbox's Approve and Decline (CONTRACT 6). A payment that already ended answers with
   * its view (a double click, the back button), so the page can show how it ended.
   */
  async sandboxAct(request: SandboxActionRequest): Promise<CustomerPaymentReply> {
    const payment = await this.sandboxPayment(request);
    if (payment.status !== 'processing') return this.customerView(payment);
    const now = this.clock.now();
    const declined = request.action === 'decline' || payment.customer.phone === DECLINED_TEST_PHONE;
    const command: PaymentCommand = declined
      ? { type: 'FailPayment', data: { trigger: 'provider', reason: 'declined', now } }
      : {
          type: 'ConfirmPayment',
          data: {
            trigger: 'provider',
            providerTransactionId: `sandbox_txn_${newId('payment', now.getTime()).slice(4)}`,
            fees: this.fees,
            now,
          },
        };
    const outcome = await this.commands.run(payment.paymentId, command);
    return this.customerView(outcome.payment);
  }
}
