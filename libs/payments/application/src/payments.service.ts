import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, CONFIG, type XaalisConfig } from '@xaalis/config';
import type {
  CreatePaymentRequest,
  ListPaymentsRequest,
  PaymentListReply,
  PaymentRef,
  PaymentReply,
  PaymentTestHelperRequest,
} from '@xaalis/contracts';
import { DomainError, newId, type Clock } from '@xaalis/kernel';
import {
  aggregatedIdentityRequired,
  availableProviders,
  toPaymentObject,
  type FeeSchedule,
  type Payment,
  type PaymentCommand,
} from '@xaalis/payments-domain';
import { PaymentCommands } from './payment.commands.service';
import { PaymentLinker } from './payment-links';
import { PaymentQueries } from './payment.queries';
import { ProviderStarter } from './provider-starter';

/**
 * The merchant API's payment use cases behind the bus patterns: create, read, list and the test
 * helpers. The customer's side is `CustomerPaymentsService`, the providers' `ProviderOutcomes`.
 */
@Injectable()
export class PaymentsService {
  private readonly fees: FeeSchedule;
  private readonly aggregatorMode: boolean;

  constructor(
    private readonly commands: PaymentCommands,
    private readonly queries: PaymentQueries,
    private readonly linker: PaymentLinker,
    private readonly starter: ProviderStarter,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CONFIG) config: XaalisConfig,
  ) {
    this.fees = config.feeBps;
    this.aggregatorMode = config.aggregatorMode;
  }

  private object(payment: Payment): PaymentReply {
    return toPaymentObject(payment, this.linker.links(payment));
  }

  async create(request: CreatePaymentRequest): Promise<PaymentReply> {
    const now = this.clock.now();
    const paymentId = request.payment_id;
    // Outside aggregator mode Wave is called as the merchant's own account: no aggregated id.
    const aggregatedMerchantId = this.aggregatorMode
      ? (request.aggregated_merchant_id ?? null)
      : null;
    const customer = {
      phone: request.customer?.phone ?? null,
      name: request.customer?.name ?? null,
    };
    const base = {
      paymentId,
      mode: request.mode,
      amount: request.amount,
      merchantName: request.merchant_name,
      aggregatedMerchantId,
    };
    let start = null;
    if (request.provider) {
      // Refuse before calling out: a provider must never be asked for a payment we would refuse.
      const allowed = availableProviders(request.mode, this.aggregatorMode, aggregatedMerchantId);
      if (!allowed.includes(request.provider)) throw aggregatedIdentityRequired();
      start = await this.starter.start(base, request.provider, customer.phone);
    }
    const { payment } = await this.commands.run(paymentId, {
      type: 'CreatePayment',
      data: {
        paymentId,
        mode: base.mode,
        amount: base.amount,
        merchantName: base.merchantName,
        aggregatedMerchantId,
        merchantId: request.merchant_id,
        description: request.description ?? null,
        clientReference: request.client_reference ?? null,
        customer,
        successUrl: request.success_url ?? null,
        cancelUrl: request.cancel_url ?? null,
        metadata: request.metadata ?? {},
        aggregatorMode: this.aggregatorMode,
        start,
        fees: this.fees,
        now,
      },
    });
    return this.object(payment);
  }

  async get(request: PaymentRef): Promise<PaymentReply> {
    return this.object(
      await this.queries.get(request.merchant_id, request.mode, request.payment_id),
    );
  }

  async list(request: ListPaymentsRequest): Promise<PaymentListReply> {
    const rows = await this.queries.list(request.merchant_id, request.mode, {
      limit: request.limit,
      startingAfter: request.starting_after,
      status: request.status,
    });
    return {
      data: rows.slice(0, request.limit).map((payment) => this.object(payment)),
      has_more: rows.length > request.limit,
    };
  }

  /** CONTRACT 6: exactly the effects of the real trigger (the same commands, events and jobs). */
  async testHelper(request: PaymentTestHelperRequest): Promise<PaymentReply> {
    if (request.mode !== 'test') {
      throw new DomainError('forbidden', 'Test helpers work with test keys only.');
    }
    const payment = await this.queries.get(request.merchant_id, request.mode, request.payment_id);
    const now = this.clock.now();
    const command: PaymentCommand =
      request.action === 'succeed'
        ? {
            type: 'ConfirmPayment',
            data: {
              trigger: 'test_helper',
              providerTransactionId: `mock_${newId('payment', now.getTime()).slice(4)}`,
              fees: this.fees,
              now,
            },
          }
        : request.action === 'fail'
          ? { type: 'FailPayment', data: { trigger: 'test_helper', reason: 'declined', now } }
          : { type: 'ExpirePayment', data: { trigger: 'test_helper', now } };
    const outcome = await this.commands.run(payment.paymentId, command);
    return this.object(outcome.payment);
  }
}
