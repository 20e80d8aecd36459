import {
  evolve,
  exists,
  initialState,
  nextTickAt,
  SUBSCRIPTION_STREAM_PREFIX,
  type Subscription,
} from '@xaalis/billing-domain';
import type { PrismaTx, Projection } from '@xaalis/database';
import type { RecordedEvent } from '@xaalis/event-store';
import { deleteJobsOfKinds, scheduleJobs } from '@xaalis/jobs';
import { billingJobs, PROJECTED_BILLING_JOB_KINDS } from './billing-jobs.kinds';
import { fromStored, toStored, type StoredSubscription } from './stored-subscription';
import { asSubscriptionEvent } from './subscription-event-guards';

export const BILLING_PROJECTION = 'billing';

interface Folded {
  state: Subscription;
  revision: bigint;
}

/**
 * The billing context's read models, in the runner's transaction: `subscriptions` (the folded
 * state, for the lists), `invoices` (one row per period, held unique by the database too), and
 * the billing clock: each subscription's `billing.tick` job, due at its next billing instant,
 * written with the facts that moved it. Set-based: one read and one write per table for a batch.
 * Each row's revision makes a second application of an event a no-op.
 */
export const billingProjection: Projection = {
  name: BILLING_PROJECTION,
  streamPrefixes: [SUBSCRIPTION_STREAM_PREFIX],
  apply: (recorded, tx) => applyBillingEvents([recorded], tx),
  applyBatch: applyBillingEvents,
  async reset(tx: PrismaTx): Promise<void> {
    await deleteJobsOfKinds(tx, PROJECTED_BILLING_JOB_KINDS);
    await tx.invoice.deleteMany({});
    await tx.subscription.deleteMany({});
  },
};

async function applyBillingEvents(batch: RecordedEvent[], tx: PrismaTx): Promise<void> {
  const events = batch.flatMap((recorded) => {
    const event = asSubscriptionEvent(recorded);
    return event
      ? [{ recorded, event, id: recorded.streamName.slice(SUBSCRIPTION_STREAM_PREFIX.length) }]
      : [];
  });
  if (events.length === 0) return;

  const ids = [...new Set(events.map(({ id }) => id))];
  const rows = await tx.$queryRaw<
    Array<{ id: string; state: StoredSubscription; revision: bigint }>
  >`
    SELECT id, state, revision FROM subscriptions
     WHERE id IN (SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`;
  const folded = new Map<string, Folded>(
    rows.map((row) => [row.id, { state: fromStored(row.state), revision: row.revision }]),
  );
  const changed = new Set<string>();
  const touchedInvoices = new Set<string>();
  for (const { recorded, event, id } of events) {
    const current = folded.get(id);
    if (current && current.revision >= recorded.revision) continue;
    const after = evolve(current?.state ?? initialState(), event);
    if (!exists(after)) continue;
    folded.set(id, { state: after, revision: recorded.revision });
    changed.add(id);
    if ('invoiceId' in event.data) touchedInvoices.add(event.data.invoiceId);
  }
  if (changed.size === 0) return;
  const subscriptions = [...changed].map((id) => folded.get(id)!);
  await upsertSubscriptions(tx, subscriptions);
  await upsertInvoices(tx, subscriptions, touchedInvoices);
  await scheduleJobs(
    tx,
    subscriptions.map(({ state }) => billingJobs.tick(state.subscriptionId, nextTickAt(state))),
  );
}

async function upsertSubscriptions(tx: PrismaTx, subscriptions: Folded[]): Promise<void> {
  const records = subscriptions.map(({ state, revision }) => ({
    id: state.subscriptionId,
    merchant_id: state.merchantId,
    mode: state.mode,
    status: state.status,
    state: toStored(state),
    revision: revision.toString(),
    created_at: state.createdAt,
  }));
  await tx.$executeRaw`
    INSERT INTO subscriptions (id, merchant_id, mode, status, state, revision, created_at)
    SELECT id, merchant_id, mode, status, state, revision, created_at
      FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb) AS r(
        id text, merchant_id text, mode text, status text, state jsonb, revision bigint,
        created_at timestamptz)
    ON CONFLICT (id) DO UPDATE
      SET status = EXCLUDED.status, state = EXCLUDED.state, revision = EXCLUDED.revision`;
}

/** The invoices the batch's events named (a long subscription's others did not change). */
async function upsertInvoices(
  tx: PrismaTx,
  subscriptions: Folded[],
  touched: Set<string>,
): Promise<void> {
  const records = subscriptions.flatMap(({ state }) =>
    state.invoices
      .filter((invoice) => touched.has(invoice.invoiceId))
      .map((invoice) => ({
        id: invoice.invoiceId,
        subscription_id: state.subscriptionId,
        merchant_id: state.merchantId,
        mode: state.mode,
        period_index: invoice.periodIndex,
        status: invoice.status,
        state: invoice,
        created_at: invoice.createdAt,
      })),
  );
  if (records.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO invoices (id, subscription_id, merchant_id, mode, period_index, status, state,
                          created_at)
    SELECT id, subscription_id, merchant_id, mode, period_index, status, state, created_at
      FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb) AS r(
        id text, subscription_id text, merchant_id text, mode text, period_index integer,
        status text, state jsonb, created_at timestamptz)
    ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, state = EXCLUDED.state`;
}
