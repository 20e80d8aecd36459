import { announceApiKeyChanged, type PrismaTx, type Projection } from '@xaalis/database';
import type { RecordedEvent } from '@xaalis/event-store';
import { deleteJobsOfKinds, scheduleJobs, type JobChange } from '@xaalis/jobs';
import { assertNever } from '@xaalis/kernel';
import {
  AGENT_WALLET_STREAM_PREFIX,
  evolvePayout,
  initialPayoutState,
  PAYOUT_STREAM_PREFIX,
  payoutExists,
  type AgentWalletEvent,
  type AgentWalletObject,
  type Payout,
  type PayoutEvent,
} from '@xaalis/payouts-domain';
import { asAgentWalletEvent, asPayoutEvent } from './payout-event-guards';
import { payoutJobs, PROJECTED_PAYOUT_JOB_KINDS } from './payout-jobs.kinds';

export const PAYOUTS_PROJECTION = 'payouts';

/**
 * The payouts context's read models, in the runner's transaction: `agent_wallets` (the wallets'
 * list), `agent_keys` (what the gateway's bearer guard asks about; a revoke announces the key in
 * the same transaction), `payouts` (a wallet's payouts), and the payouts' durable jobs. Each row's
 * revision makes a second application of an event a no-op.
 */
export const payoutsProjection: Projection = {
  name: PAYOUTS_PROJECTION,
  streamPrefixes: [AGENT_WALLET_STREAM_PREFIX, PAYOUT_STREAM_PREFIX],
  apply: (recorded, tx) => applyPayoutsEvents([recorded], tx),
  applyBatch: applyPayoutsEvents,
  async reset(tx: PrismaTx): Promise<void> {
    await deleteJobsOfKinds(tx, PROJECTED_PAYOUT_JOB_KINDS);
    await tx.payout.deleteMany({});
    await tx.agentKey.deleteMany({});
    await tx.agentWallet.deleteMany({});
  },
};

async function applyPayoutsEvents(batch: RecordedEvent[], tx: PrismaTx): Promise<void> {
  const jobs: JobChange[] = [];
  for (const recorded of batch) {
    const walletEvent = asAgentWalletEvent(recorded);
    if (walletEvent) await applyWalletEvent(recorded, walletEvent, tx, jobs);
  }
  await applyPayoutEvents(batch, tx, jobs);
  await scheduleJobs(tx, jobs);
}

/**
 * A wallet's row changes only with its policy; its keys are rows of their own. Its payouts'
 * facts (accepted, released, abandoned) change neither: the payouts' own streams show them.
 */
async function applyWalletEvent(
  recorded: RecordedEvent,
  event: AgentWalletEvent,
  tx: PrismaTx,
  jobs: JobChange[],
): Promise<void> {
  const walletId = recorded.streamName.slice(AGENT_WALLET_STREAM_PREFIX.length);
  // Most of a busy wallet's facts are its payouts': they touch no row of the wallet's.
  if (event.type === 'PayoutAccepted' || event.type === 'PayoutReleased') return;
  if (event.type === 'PayoutAbandoned') {
    jobs.push(payoutJobs.claimHold(walletId, event.data.payoutId, null));
    return;
  }
  const row = await tx.agentWallet.findUnique({ where: { id: walletId } });
  if (row && row.revision >= recorded.revision) return;
  switch (event.type) {
    case 'AgentWalletCreated': {
      const data = event.data;
      const object: AgentWalletObject = {
        id: data.walletId,
        object: 'agent_wallet',
        livemode: data.mode === 'live',
        name: data.name,
        status: 'active',
        provider: data.provider,
        max_payout_amount: data.maxPayoutAmount,
        max_daily_amount: data.maxDailyAmount,
        allowed_recipient_phones: data.allowedRecipientPhones,
        policy_version: 1,
        created_at: data.createdAt,
        updated_at: data.createdAt,
      };
      await tx.agentWallet.create({
        data: {
          id: walletId,
          merchantId: data.merchantId,
          mode: data.mode,
          object: object as object,
          revision: recorded.revision,
          createdAt: new Date(data.createdAt),
        },
      });
      return;
    }
    case 'AgentWalletPolicyChanged': {
      if (!row) return;
      const { changes, policyVersion, changedAt } = event.data;
      const object = {
        ...(row.object as unknown as AgentWalletObject),
        ...(changes.name !== undefined && { name: changes.name }),
        ...(changes.status !== undefined && { status: changes.status }),
        ...(changes.maxPayoutAmount !== undefined && {
          max_payout_amount: changes.maxPayoutAmount,
        }),
        ...(changes.maxDailyAmount !== undefined && { max_daily_amount: changes.maxDailyAmount }),
        ...(changes.allowedRecipientPhones !== undefined && {
          allowed_recipient_phones: changes.allowedRecipientPhones,
        }),
        policy_version: policyVersion,
        updated_at: changedAt,
      };
      await tx.agentWallet.update({
        where: { id: walletId },
        data: { object, revision: recorded.revision },
      });
      return;
    }
    case 'AgentKeyIssued':
      if (!row) return;
      await tx.agentKey.upsert({
        where: { id: event.data.keyId },
        create: {
          id: event.data.keyId,
          merchantId: row.merchantId,
          mode: row.mode,
          agentWalletId: walletId,
          secretHash: event.data.secretHash,
          createdAt: new Date(event.data.issuedAt),
        },
        update: {},
      });
      break;
    case 'AgentKeySecretReissued':
      // The old secret must stop working everywhere at once, as a revoked key's does.
      await tx.agentKey.updateMany({
        where: { id: event.data.keyId },
        data: { secretHash: event.data.secretHash },
      });
      await announceApiKeyChanged(tx, event.data.keyId);
      break;
    case 'AgentKeyRevoked':
      await tx.agentKey.updateMany({
        where: { id: event.data.keyId, revokedAt: null },
        data: { revokedAt: new Date(event.data.revokedAt) },
      });
      await announceApiKeyChanged(tx, event.data.keyId);
      break;
    default:
      assertNever(event);
  }
  if (row) {
    await tx.agentWallet.update({ where: { id: walletId }, data: { revision: recorded.revision } });
  }
}

interface Folded {
  state: Payout;
  revision: bigint;
}

/** Set-based, as the payments projection: one read and one upsert for the batch's payouts. */
async function applyPayoutEvents(
  batch: RecordedEvent[],
  tx: PrismaTx,
  jobs: JobChange[],
): Promise<void> {
  const events = batch.flatMap((recorded) => {
    const event = asPayoutEvent(recorded);
    return event
      ? [{ recorded, event, id: recorded.streamName.slice(PAYOUT_STREAM_PREFIX.length) }]
      : [];
  });
  if (events.length === 0) return;

  const ids = [...new Set(events.map(({ id }) => id))];
  const rows = await tx.$queryRaw<Array<{ id: string; state: Payout; revision: bigint }>>`
    SELECT id, state, revision FROM payouts
     WHERE id IN (SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`;
  const stored = new Map(rows.map((row) => [row.id, row]));
  const folded = new Map<string, Folded>();
  for (const { recorded, event, id } of events) {
    const current = folded.get(id) ??
      stored.get(id) ?? { state: initialPayoutState(), revision: -1n };
    if (current.revision >= recorded.revision) continue;
    const after = evolvePayout(current.state, event);
    if (!payoutExists(after)) continue;
    folded.set(id, { state: after, revision: recorded.revision });
    jobs.push(...jobChanges(after, event));
  }
  if (folded.size === 0) return;
  const records = [...folded.values()].map(({ state, revision }) => ({
    id: state.payoutId,
    merchant_id: state.merchantId,
    mode: state.mode,
    agent_wallet_id: state.agentWalletId,
    client_reference: state.clientReference,
    status: state.status,
    state,
    revision: revision.toString(),
    created_at: state.createdAt,
  }));
  await tx.$executeRaw`
    INSERT INTO payouts (id, merchant_id, mode, agent_wallet_id, client_reference, status, state,
                         revision, created_at)
    SELECT id, merchant_id, mode, agent_wallet_id, client_reference, status, state, revision,
           created_at
      FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb) AS r(
        id text, merchant_id text, mode text, agent_wallet_id text, client_reference text,
        status text, state jsonb, revision bigint, created_at timestamptz)
    ON CONFLICT (id) DO UPDATE
      SET status = EXCLUDED.status, state = EXCLUDED.state, revision = EXCLUDED.revision`;
}

/** What each fact of a payout asks the scheduler to do. */
function jobChanges(payout: Payout, event: PayoutEvent): JobChange[] {
  const id = payout.payoutId;
  switch (event.type) {
    case 'PayoutCreated': {
      const created = new Date(payout.createdAt);
      const claimed = payout.agentWalletId
        ? [payoutJobs.claimHold(payout.agentWalletId, id, null)]
        : [];
      return [...claimed, payoutJobs.send(id, created)];
    }
    case 'PayoutProcessing':
    case 'PayoutProviderReferenceRecorded':
      return [];
    case 'PayoutSucceeded':
    case 'PayoutFailed':
    case 'PayoutReversed':
      return [payoutJobs.send(id, null), payoutJobs.settle(id, new Date(payout.updatedAt))];
    default:
      return assertNever(event);
  }
}
