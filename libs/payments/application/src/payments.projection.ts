import type { PrismaTx, Projection } from '@xaalis/database';
import type { RecordedEvent } from '@xaalis/event-store';
import { deleteJobsOfKinds, scheduleJobs, type JobChange } from '@xaalis/jobs';
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
import { ALL_PAYMENT_JOB_KINDS, paymentJobs } from './payment-jobs.kinds';

export const PAYMENTS_PROJECTION = 'payments';

/** A live payment with a session is first asked about after this long without a webhook. */
export const RECONCILE_AFTER_MS = 60_000;

/**
 * One row per payment holding the folded state, one per refund, plus the payment's durable jobs
 * (`@xaalis/jobs`), written in the runner's transaction. The row's revision makes a second
 * application of an event a no-op.
 *
 * A batch costs at most five statements whatever its size (read the rows it touches, upsert the
 * payments, upsert their refunds, upsert and delete jobs): under load the runner hands over tens
 * of events at a time, and a statement per event was most of the CPU a payment create cost.
 */
export const paymentsProjection: Projection = {
  name: PAYMENTS_PROJECTION,
  streamPrefixes: [PAYMENT_STREAM_PREFIX],
  apply: (recorded, tx) => applyPaymentEvents([recorded], tx),
  applyBatch: applyPaymentEvents,
  async reset(tx: PrismaTx): Promise<void> {
    await deleteJobsOfKinds(tx, ALL_PAYMENT_JOB_KINDS);
    await tx.refund.deleteMany({});
    await tx.payment.deleteMany({});
  },
};

/** The facts that change a payment's refunds, and so its rows in `refunds`. */
const REFUND_EVENTS = new Set<PaymentEvent['type']>([
  'RefundRequested',
  'RefundSucceeded',
  'RefundFailed',
]);

/** A payment as this batch leaves it: the row to write. */
interface Folded {
  state: Payment;
  revision: bigint;
  updatedAt: Date;
}

async function applyPaymentEvents(batch: RecordedEvent[], tx: PrismaTx): Promise<void> {
  const events = batch.flatMap((recorded) => {
    const event = asPaymentEvent(recorded);
    return event
      ? [{ recorded, event, id: recorded.streamName.slice(PAYMENT_STREAM_PREFIX.length) }]
      : [];
  });
  if (events.length === 0) return;

  const ids = [...new Set(events.map(({ id }) => id))];
  const rows = await tx.$queryRaw<Array<{ id: string; state: Payment; revision: bigint }>>`
    SELECT id, state, revision FROM payments
     WHERE id IN (SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`;
  const stored = new Map(rows.map((row) => [row.id, row]));
  const folded = new Map<string, Folded>();
  /** In event order: a job's last change in the batch is the one written. */
  const jobs: JobChange[] = [];
  /** Payments whose refunds changed in this batch. */
  const refunded = new Set<string>();
  for (const { recorded, event, id } of events) {
    const current = folded.get(id) ?? stored.get(id) ?? { state: initialState(), revision: -1n };
    if (current.revision >= recorded.revision) continue;
    const after = evolve(current.state, event);
    if (!exists(after)) continue;
    folded.set(id, { state: after, revision: recorded.revision, updatedAt: recorded.createdAt });
    if (REFUND_EVENTS.has(event.type)) refunded.add(id);
    jobs.push(...jobChanges(after, event));
  }

  const written = [...folded.values()];
  if (written.length > 0) {
    const records = written.map(({ state, revision, updatedAt }) => ({
      id: state.paymentId,
      merchant_id: state.merchantId,
      mode: state.mode,
      status: state.status,
      client_reference: state.clientReference,
      state,
      revision: revision.toString(),
      created_at: state.createdAt,
      updated_at: updatedAt.toISOString(),
    }));
    await tx.$executeRaw`
      INSERT INTO payments (id, merchant_id, mode, status, client_reference, state, revision,
                            created_at, updated_at)
      SELECT id, merchant_id, mode, status, client_reference, state, revision, created_at, updated_at
        FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb) AS r(
          id text, merchant_id text, mode text, status text, client_reference text, state jsonb,
          revision bigint, created_at timestamptz, updated_at timestamptz)
      ON CONFLICT (id) DO UPDATE
        SET status = EXCLUDED.status, client_reference = EXCLUDED.client_reference,
            state = EXCLUDED.state, revision = EXCLUDED.revision, updated_at = EXCLUDED.updated_at`;
  }

  const refunds = [...refunded].flatMap((id) => {
    const { state } = folded.get(id)!;
    return state.refunds.map((refund) => ({
      id: refund.refundId,
      payment_id: state.paymentId,
      merchant_id: state.merchantId,
      mode: state.mode,
      amount: refund.amount,
      status: refund.status,
      failure_reason: refund.failureReason,
      created_at: refund.createdAt,
    }));
  });
  if (refunds.length > 0) {
    await tx.$executeRaw`
      INSERT INTO refunds (id, payment_id, merchant_id, mode, amount, status, failure_reason,
                           created_at)
      SELECT id, payment_id, merchant_id, mode, amount, status, failure_reason, created_at
        FROM jsonb_to_recordset(${JSON.stringify(refunds)}::jsonb) AS r(
          id text, payment_id text, merchant_id text, mode text, amount integer, status text,
          failure_reason text, created_at timestamptz)
      ON CONFLICT (id) DO UPDATE
        SET status = EXCLUDED.status, failure_reason = EXCLUDED.failure_reason`;
  }

  await scheduleJobs(tx, jobs);
}

/** What each fact asks the scheduler to do later. */
function jobChanges(payment: Payment, event: PaymentEvent): JobChange[] {
  const paymentId = payment.paymentId;
  switch (event.type) {
    case 'PaymentCreated':
      return [paymentJobs.expire(paymentId, new Date(payment.expiresAt))];
    case 'PaymentMethodChosen': {
      // Live payments are reconciled until they end, in case a webhook never arrives: at once
      // after an unknown outcome at the provider, otherwise after a minute.
      if (payment.mode !== 'live') return [];
      const chosenAt = Date.parse(event.data.chosenAt);
      const delay = event.data.redirectUrl === null ? 0 : RECONCILE_AFTER_MS;
      return [paymentJobs.reconcile(paymentId, new Date(chosenAt + delay))];
    }
    case 'PaymentSessionFound':
      return [];
    case 'PaymentSucceeded':
    case 'PaymentFailed':
    case 'PaymentExpired':
      return [paymentJobs.expire(paymentId, null), paymentJobs.reconcile(paymentId, null)];
    case 'RefundRequested':
      return [paymentJobs.refund(paymentId, event.data.refundId, new Date(event.data.requestedAt))];
    case 'RefundSucceeded':
    case 'RefundFailed':
      return [paymentJobs.refund(paymentId, event.data.refundId, null)];
    default:
      return assertNever(event);
  }
}
