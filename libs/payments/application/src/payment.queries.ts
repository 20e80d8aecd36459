import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { EVENT_STORE, PG_POOL } from '@xaalis/config';
import type { ProjectionRunner } from '@xaalis/database';
import type { EventStore } from '@xaalis/event-store';
import { requireCursor } from '@xaalis/http';
import { notFound, type Mode } from '@xaalis/kernel';
import {
  evolve,
  exists,
  initialState,
  paymentStream,
  type Payment,
  type PaymentStatus,
} from '@xaalis/payments-domain';
import { paymentEventOf } from './payment-event-guard';
import { PaymentCommands } from './payment.commands.service';
import { PAYMENTS_PROJECTION_RUNNER } from './payments.tokens';

export interface PaymentListQuery {
  limit: number;
  startingAfter?: string;
  status?: PaymentStatus;
}

/**
 * Reads of payments. One payment is folded from its stream (one query, a handful of events): the
 * source of truth, so every caller reads its own writes without waiting for the read model, in
 * either event store. Lists come from the `payments` read model, brought up to date first.
 * Another merchant's or the other mode's payment is simply not found.
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
    const { state } = await this.store.aggregateStream(paymentStream(paymentId), {
      initialState,
      evolve,
      asEvent: paymentEventOf,
    });
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
    // What this process appended before the request (a create just answered) is listed; other
    // replicas' writes follow within the projection's lag.
    const last = this.commands.lastPosition;
    if (last !== null) await this.projections.catchUpTo(last);
    else await this.projections.runOnce();
    if (query.startingAfter !== undefined) {
      const { rows } = await this.pool.query({
        name: 'payments_cursor',
        text: 'SELECT 1 FROM payments WHERE id = $1 AND merchant_id = $2 AND mode = $3',
        values: [query.startingAfter, merchantId, mode],
      });
      requireCursor(rows[0], query.startingAfter);
    }
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
}
