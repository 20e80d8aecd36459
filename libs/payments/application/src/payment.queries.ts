import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { EVENT_STORE, PG_POOL } from '@xaalis/config';
import type { ProjectionRunner } from '@xaalis/database';
import type { EventStore } from '@xaalis/event-store';
import { requireOwnCursor } from '@xaalis/http';
import { notFound, type Mode } from '@xaalis/kernel';
import {
  exists,
  paymentStream,
  type Payment,
  type PaymentStatus,
  type RefundStatus,
} from '@xaalis/payments-domain';
import { PAYMENT_FOLD } from './payment-event-guard';
import { PaymentCommands } from './payment.commands.service';
import { PAYMENTS_PROJECTION_RUNNER } from './payments.tokens';

export interface PaymentListQuery {
  limit: number;
  startingAfter?: string;
  status?: PaymentStatus;
}

export interface RefundListQuery {
  limit: number;
  startingAfter?: string;
  paymentId?: string;
}

/** A row of the `refunds` read model, as CONTRACT 5 shows it. */
export interface RefundRow {
  id: string;
  payment_id: string;
  amount: number;
  status: RefundStatus;
  failure_reason: string | null;
  created_at: Date;
}

/**
 * Reads of payments and their refunds. One payment is folded from its stream (one query, a
 * handful of events): the source of truth, so every caller reads its own writes without waiting
 * for the read model, in either event store. Lists, and a refund found by its id alone, come from
 * the `payments` and `refunds` read models, brought up to date first. Another merchant's or the
 * other mode's payment or refund is simply not found.
 */
@Injectable()
export class PaymentQueries {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PAYMENTS_PROJECTION_RUNNER) private readonly projections: ProjectionRunner,
    private readonly commands: PaymentCommands,
  ) {}

  async find(paymentId: string): Promise<Payment | undefined> {
    if (!/^pay_[0-9A-Za-z]{20,40}$/.test(paymentId)) return undefined;
    const { state } = await this.store.aggregateStream(paymentStream(paymentId), PAYMENT_FOLD);
    return exists(state) ? state : undefined;
  }

  async get(merchantId: string, mode: Mode, paymentId: string): Promise<Payment> {
    const payment = await this.find(paymentId);
    if (!payment || payment.merchantId !== merchantId || payment.mode !== mode) {
      throw notFound('payment');
    }
    return payment;
  }

  /** Newest first, `limit + 1` rows (the extra one only says there is more). */
  async list(merchantId: string, mode: Mode, query: PaymentListQuery): Promise<Payment[]> {
    await this.readModelsCaughtUp();
    await requireOwnCursor(this.pool, 'payments', { merchantId, mode }, query.startingAfter);
    const { rows } = await this.pool.query<{ state: Payment }>({
      name: 'payments_list',
      text: `SELECT state FROM payments
              WHERE merchant_id = $1 AND mode = $2
                AND ($3::text IS NULL OR status = $3)
                AND ($4::text IS NULL OR id < $4)
              ORDER BY id DESC
              LIMIT $5`,
      values: [
        merchantId,
        mode,
        query.status ?? null,
        query.startingAfter ?? null,
        query.limit + 1,
      ],
    });
    return rows.map((row) => row.state);
  }

  async getRefund(merchantId: string, mode: Mode, refundId: string): Promise<RefundRow> {
    await this.readModelsCaughtUp();
    const { rows } = await this.pool.query<RefundRow>({
      name: 'refunds_get',
      text: `SELECT ${REFUND_COLUMNS} FROM refunds WHERE id = $1 AND merchant_id = $2 AND mode = $3`,
      values: [refundId, merchantId, mode],
    });
    if (!rows[0]) throw notFound('refund');
    return rows[0];
  }

  /** Newest first, `limit + 1` rows; of one payment when `paymentId` is given. */
  async listRefunds(merchantId: string, mode: Mode, query: RefundListQuery): Promise<RefundRow[]> {
    await this.readModelsCaughtUp();
    await requireOwnCursor(this.pool, 'refunds', { merchantId, mode }, query.startingAfter);
    const { rows } = await this.pool.query<RefundRow>({
      name: 'refunds_list',
      text: `SELECT ${REFUND_COLUMNS} FROM refunds
              WHERE merchant_id = $1 AND mode = $2
                AND ($3::text IS NULL OR payment_id = $3)
                AND ($4::text IS NULL OR id < $4)
              ORDER BY id DESC
              LIMIT $5`,
      values: [
        merchantId,
        mode,
        query.paymentId ?? null,
        query.startingAfter ?? null,
        query.limit + 1,
      ],
    });
    return rows;
  }

  /**
   * What this process appended before the request (a create just answered) is in the read
   * models; other replicas' writes follow within the projection's lag.
   */
  private async readModelsCaughtUp(): Promise<void> {
    const last = this.commands.lastPosition;
    if (last !== null) await this.projections.catchUpTo(last);
    else await this.projections.runOnce();
  }
}

const REFUND_COLUMNS = 'id, payment_id, amount, status, failure_reason, created_at';
