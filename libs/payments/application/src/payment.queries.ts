import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { PG_POOL } from '@xaalis/config';
import { requireCursor } from '@xaalis/http';
import { notFound, type Mode } from '@xaalis/kernel';
import type { Payment, PaymentStatus } from '@xaalis/payments-domain';

export interface PaymentListQuery {
  limit: number;
  startingAfter?: string;
  status?: PaymentStatus;
}

/**
 * Reads of the `payments` read model, as prepared statements on the pool (the hot path of
 * `GET /v1/payments/{id}`). Another merchant's or the other mode's payment is simply not found.
 */
@Injectable()
export class PaymentQueries {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async find(paymentId: string): Promise<Payment | undefined> {
    const { rows } = await this.pool.query<{ state: Payment }>({
      name: 'payments_find',
      text: 'SELECT state FROM payments WHERE id = $1',
      values: [paymentId],
    });
    return rows[0]?.state;
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
      values: [merchantId, mode, query.status ?? null, query.startingAfter ?? null, query.limit + 1],
    });
    return rows.map((row) => row.state);
  }
}
