import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import {
  exists,
  findInvoice,
  subscriptionIdOfInvoice,
  subscriptionStream,
  type Invoice,
  type Subscription,
} from '@xaalis/billing-domain';
import { EVENT_STORE, PG_POOL } from '@xaalis/config';
import type { ProjectionRunner } from '@xaalis/database';
import { foldStream, type EventStore } from '@xaalis/event-store';
import { requireCursor, requireOwnCursor } from '@xaalis/http';
import { notFound, type InvoiceStatus, type Mode, type SubscriptionStatus } from '@xaalis/kernel';
import { BillingCommands } from './billing.commands';
import { BILLING_PROJECTION_RUNNER } from './billing.tokens';
import { fromStored, type StoredSubscription } from './stored-subscription';
import { SUBSCRIPTION_FOLD } from './subscription-event-guards';

export interface Page {
  limit: number;
  startingAfter?: string;
}

const SUBSCRIPTION_ID = /^sub_[0-9A-Za-z]{20,40}$/;

/**
 * Reads of subscriptions and invoices. One subscription is folded from its stream, the truth, and
 * so is one invoice (its id names its subscription's stream), so a caller reads its own writes in
 * either event store; lists come from the `subscriptions` and `invoices` read models, brought up
 * to date first. Another merchant's or the other mode's object is simply not found.
 */
@Injectable()
export class BillingQueries {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(BILLING_PROJECTION_RUNNER) private readonly projections: ProjectionRunner,
    private readonly commands: BillingCommands,
  ) {}

  /**
   * Read from what this process last folded of the subscription (`BillingCommands.subscriptions`).
   * With `cached`, what the cache holds is taken as it is, without asking the store: for a
   * judgement that a command on the stream makes again (the billing clock's), never for what a
   * client reads.
   */
  async findSubscription(
    subscriptionId: string,
    options: { cached?: boolean } = {},
  ): Promise<Subscription | undefined> {
    if (!SUBSCRIPTION_ID.test(subscriptionId)) return undefined;
    const stream = subscriptionStream(subscriptionId);
    const folded =
      (options.cached ? this.commands.subscriptions.get(stream) : undefined) ??
      (await foldStream(this.store, stream, SUBSCRIPTION_FOLD, this.commands.subscriptions));
    return folded && exists(folded.state) ? folded.state : undefined;
  }

  async subscription(
    merchantId: string,
    mode: Mode,
    subscriptionId: string,
  ): Promise<Subscription> {
    const subscription = await this.findSubscription(subscriptionId);
    if (!subscription || subscription.merchantId !== merchantId || subscription.mode !== mode) {
      throw notFound('subscription');
    }
    return subscription;
  }

  /** The invoice and the subscription whose stream holds it; undefined for no such invoice. */
  async findInvoice(
    invoiceId: string,
  ): Promise<{ subscription: Subscription; invoice: Invoice } | undefined> {
    const subscriptionId = subscriptionIdOfInvoice(invoiceId);
    const subscription = subscriptionId && (await this.findSubscription(subscriptionId));
    const invoice = subscription ? findInvoice(subscription, invoiceId) : undefined;
    return subscription && invoice ? { subscription, invoice } : undefined;
  }

  async invoice(
    merchantId: string,
    mode: Mode,
    invoiceId: string,
  ): Promise<{ subscription: Subscription; invoice: Invoice }> {
    const found = await this.findInvoice(invoiceId);
    if (
      !found ||
      found.subscription.merchantId !== merchantId ||
      found.subscription.mode !== mode
    ) {
      throw notFound('invoice');
    }
    return found;
  }

  /** Newest first, `limit + 1` rows (the extra one only says there is more). */
  async listSubscriptions(
    merchantId: string,
    mode: Mode,
    page: Page & { status?: SubscriptionStatus },
  ): Promise<Subscription[]> {
    await this.readModelsCaughtUp();
    await requireOwnCursor(this.pool, 'subscriptions', { merchantId, mode }, page.startingAfter);
    const { rows } = await this.pool.query<{ state: StoredSubscription }>({
      name: 'subscriptions_list',
      text: `SELECT state FROM subscriptions
              WHERE merchant_id = $1 AND mode = $2
                AND ($3::text IS NULL OR status = $3)
                AND ($4::text IS NULL OR id < $4)
              ORDER BY id DESC
              LIMIT $5`,
      values: [merchantId, mode, page.status ?? null, page.startingAfter ?? null, page.limit + 1],
    });
    return rows.map((row) => fromStored(row.state));
  }

  /**
   * Newest first by `created_at` (a test subscription's invoices carry its own clock's times),
   * `limit + 1` rows; of one subscription, and in one status, when asked.
   */
  async listInvoices(
    merchantId: string,
    mode: Mode,
    page: Page & { subscription?: string; status?: InvoiceStatus },
  ): Promise<Array<{ subscription: Subscription; invoice: Invoice }>> {
    await this.readModelsCaughtUp();
    let after: { created_at: Date; id: string } | undefined;
    if (page.startingAfter !== undefined) {
      const { rows } = await this.pool.query<{ created_at: Date; id: string }>({
        name: 'invoices_cursor',
        text: 'SELECT created_at, id FROM invoices WHERE id = $1 AND merchant_id = $2 AND mode = $3',
        values: [page.startingAfter, merchantId, mode],
      });
      after = requireCursor(rows[0], page.startingAfter);
    }
    const { rows } = await this.pool.query<{
      invoice: Invoice;
      subscription: StoredSubscription;
    }>({
      name: 'invoices_list',
      text: `SELECT i.state AS invoice, s.state AS subscription
               FROM invoices i JOIN subscriptions s ON s.id = i.subscription_id
              WHERE i.merchant_id = $1 AND i.mode = $2
                AND ($3::text IS NULL OR i.subscription_id = $3)
                AND ($4::text IS NULL OR i.status = $4)
                AND ($5::timestamptz IS NULL OR (i.created_at, i.id) < ($5, $6))
              ORDER BY i.created_at DESC, i.id DESC
              LIMIT $7`,
      values: [
        merchantId,
        mode,
        page.subscription ?? null,
        page.status ?? null,
        after?.created_at ?? null,
        after?.id ?? null,
        page.limit + 1,
      ],
    });
    return rows.map((row) => ({
      subscription: fromStored(row.subscription),
      invoice: row.invoice,
    }));
  }

  /**
   * What this process appended before the request is in the read models; other replicas'
   * writes follow within the projection's lag.
   */
  async readModelsCaughtUp(): Promise<void> {
    const last = this.commands.lastPosition;
    if (last !== null) await this.projections.catchUpTo(last);
    else await this.projections.runOnce();
  }
}
