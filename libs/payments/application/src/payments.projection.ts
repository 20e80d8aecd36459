import type { PrismaTx, Projection } from '@xaalis/database';
import type { RecordedEvent } from '@xaalis/event-store';
import { assertNever } from '@xaalis/kernel';
import {
  evolve,
  exists,
  initialState,
  PAYMENT_STREAM_PREFIX,
  type Payment,
  type PaymentEvent,
} from '@xaalis/payments-domain';
import { asPaymentEvent } from './payment-event-guard';
import { jobKinds } from './payment-jobs.kinds';

export const PAYMENTS_PROJECTION = 'payments';

/** A live payment with a session is first asked about after this long without a webhook. */
export const RECONCILE_AFTER_MS = 60_000;

/**
 * One row per payment holding the folded state, plus the payment's scheduled jobs, written in
 * the runner's transaction. The row's revision makes a second application of an event a no-op.
 */
export const paymentsProjection: Projection = {
  name: PAYMENTS_PROJECTION,
  streamPrefixes: [PAYMENT_STREAM_PREFIX],
  async apply(recorded: RecordedEvent, tx: PrismaTx): Promise<void> {
    const event = asPaymentEvent(recorded);
    if (!event) return;
    const id = recorded.streamName.slice(PAYMENT_STREAM_PREFIX.length);
    // Raw statements: this runs once per payment event, and Prisma's query building costs more
    // CPU than the two statements themselves.
    const rows = await tx.$queryRaw<Array<{ state: Payment; revision: bigint }>>`
      SELECT state, revision FROM payments WHERE id = ${id}`;
    const row = rows[0];
    if (row && row.revision >= recorded.revision) return;
    const before = row ? row.state : initialState();
    const after = evolve(before, event);
    if (!exists(after)) return;
    await tx.$executeRaw`
      INSERT INTO payments (id, merchant_id, mode, status, client_reference, state, revision,
                            created_at, updated_at)
      VALUES (${id}, ${after.merchantId}, ${after.mode}, ${after.status}, ${after.clientReference},
              ${JSON.stringify(after)}::jsonb, ${recorded.revision}, ${new Date(after.createdAt)},
              ${recorded.createdAt})
      ON CONFLICT (id) DO UPDATE
        SET status = EXCLUDED.status, client_reference = EXCLUDED.client_reference,
            state = EXCLUDED.state, revision = EXCLUDED.revision, updated_at = EXCLUDED.updated_at`;
    await scheduleJobs(tx, after, event);
  },
  async reset(tx: PrismaTx): Promise<void> {
    await tx.paymentJob.deleteMany({});
    await tx.payment.deleteMany({});
  },
};

async function upsertJob(tx: PrismaTx, paymentId: string, kind: string, dueAt: Date) {
  await tx.$executeRaw`
    INSERT INTO payment_jobs (payment_id, kind, due_at) VALUES (${paymentId}, ${kind}, ${dueAt})
    ON CONFLICT (payment_id, kind) DO UPDATE
      SET due_at = EXCLUDED.due_at, attempts = 0, last_error = NULL`;
}

async function dropJobs(tx: PrismaTx, paymentId: string, kinds: string[]) {
  await tx.paymentJob.deleteMany({ where: { paymentId, kind: { in: kinds } } });
}

/** What each fact asks the scheduler to do later. */
async function scheduleJobs(tx: PrismaTx, payment: Payment, event: PaymentEvent): Promise<void> {
  const id = payment.paymentId;
  switch (event.type) {
    case 'PaymentCreated':
      return upsertJob(tx, id, jobKinds.expire, new Date(payment.expiresAt));
    case 'PaymentMethodChosen': {
      // Live payments are reconciled until they end, in case a webhook never arrives: at once
      // after an unknown outcome at the provider, otherwise after a minute.
      if (payment.mode !== 'live') return;
      const chosenAt = Date.parse(event.data.chosenAt);
      const delay = event.data.redirectUrl === null ? 0 : RECONCILE_AFTER_MS;
      return upsertJob(tx, id, jobKinds.reconcile, new Date(chosenAt + delay));
    }
    case 'PaymentSessionFound':
      return;
    case 'PaymentSucceeded':
    case 'PaymentFailed':
    case 'PaymentExpired':
      return dropJobs(tx, id, [jobKinds.expire, jobKinds.reconcile]);
    case 'RefundRequested':
      return upsertJob(
        tx,
        id,
        jobKinds.refund(event.data.refundId),
        new Date(event.data.requestedAt),
      );
    case 'RefundSucceeded':
    case 'RefundFailed':
      return dropJobs(tx, id, [jobKinds.refund(event.data.refundId)]);
    default:
      return assertNever(event);
  }
}
