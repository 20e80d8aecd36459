import { Inject, Injectable, Logger } from '@nestjs/common';
import { BUS_CLIENT, CLOCK } from '@xaalis/config';
import {
  PAYOUTS_LEDGER_HOLD,
  request,
  type BusRequester,
  type CreateRefundRequest,
  type ListRefundsRequest,
  type RefundListReply,
  type RefundRef,
  type RefundReply,
} from '@xaalis/contracts';
import { failpoint } from '@xaalis/failpoints';
import { DomainError, type Clock } from '@xaalis/kernel';
import type { Payment, RefundState } from '@xaalis/payments-domain';
import { PaymentCommands } from './payment.commands.service';
import { PaymentQueries, type RefundRow } from './payment.queries';

export const refundRef = (refundId: string) => `refund:${refundId}`;

export function toRefundObject(payment: Payment, refund: RefundState): RefundReply {
  return {
    object: 'refund',
    id: refund.refundId,
    payment: payment.paymentId,
    amount: refund.amount,
    status: refund.status,
    failure_reason: refund.failureReason,
    created_at: refund.createdAt,
  };
}

/** A refund as the `refunds` read model holds it. */
function toRefundReply(row: RefundRow): RefundReply {
  return {
    object: 'refund',
    id: row.id,
    payment: row.payment_id,
    amount: row.amount,
    status: row.status,
    failure_reason: row.failure_reason,
    created_at: row.created_at.toISOString(),
  };
}

const insufficientFunds = () =>
  new DomainError('insufficient_funds', 'The available balance does not cover this refund.');

/**
 * CONTRACT 5 refunds. The refund is recorded on the payment first (so two refunds can never
 * exceed it), then its amount is held in the payouts ledger, which refuses when `available` is
 * short: the refund then fails at once and the caller gets 402. Settlement happens later, in
 * the payment's jobs, which also retry a hold that could not be asked (payouts unavailable).
 */
@Injectable()
export class RefundsService {
  private readonly logger = new Logger('Refunds');

  constructor(
    private readonly commands: PaymentCommands,
    private readonly queries: PaymentQueries,
    @Inject(BUS_CLIENT) private readonly bus: BusRequester,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async create(input: CreateRefundRequest): Promise<RefundReply> {
    const payment = await this.queries.get(input.merchant_id, input.mode, input.payment_id);
    const now = this.clock.now();
    const refundId = input.refund_id;
    const { payment: requested } = await this.commands.run(payment.paymentId, {
      type: 'RequestRefund',
      data: { refundId, amount: input.amount ?? null, now },
    });
    const refund = requested.refunds.find((candidate) => candidate.refundId === refundId)!;
    failpoint('refunds.after_request');
    // A retry of a refund whose first run got further answers what that run decided.
    if (refund.status === 'failed' && refund.failureReason === 'insufficient_funds') {
      throw insufficientFunds();
    }
    if (refund.status !== 'pending') return toRefundObject(requested, refund);
    try {
      await this.hold(requested, refund);
      failpoint('refunds.after_hold');
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if (error.code !== 'insufficient_funds') {
        // Payouts did not answer: the refund stays pending and its job asks again.
        this.logger.warn(`hold for ${refundId} deferred: ${error.code}`);
        return toRefundObject(requested, refund);
      }
      await this.commands.run(payment.paymentId, {
        type: 'SettleRefund',
        data: { refundId, outcome: 'failed', reason: 'insufficient_funds', now: this.clock.now() },
      });
      throw insufficientFunds();
    }
    return toRefundObject(requested, refund);
  }

  async get(input: RefundRef): Promise<RefundReply> {
    return toRefundReply(
      await this.queries.getRefund(input.merchant_id, input.mode, input.refund_id),
    );
  }

  async list(input: ListRefundsRequest): Promise<RefundListReply> {
    const rows = await this.queries.listRefunds(input.merchant_id, input.mode, {
      limit: input.limit,
      startingAfter: input.starting_after,
      paymentId: input.payment,
    });
    return {
      data: rows.slice(0, input.limit).map(toRefundReply),
      has_more: rows.length > input.limit,
    };
  }

  /**
   * Holds the refund's amount, once per refund. The payment's own credit is named so the ledger
   * posts it first if `payment.succeeded` has not reached payouts yet (it is posted once either way).
   */
  hold(payment: Payment, refund: RefundState) {
    return request(this.bus, PAYOUTS_LEDGER_HOLD, {
      merchant_id: payment.merchantId,
      mode: payment.mode,
      ref: refundRef(refund.refundId),
      amount: refund.amount,
      credit_first: { id: payment.paymentId, amount: payment.amount, fee: payment.fee },
    });
  }
}
