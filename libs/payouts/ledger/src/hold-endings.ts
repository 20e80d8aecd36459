import { notFound } from '@xaalis/kernel';
import type { PoolClient } from 'pg';
import {
  releasedTxnId,
  settledTxnId,
  type HeldFunds,
  type HoldRef,
  type LedgerPosting,
  type SettlementAccount,
} from '@xaalis/ledger-domain';
import { lockForEndings } from './ledger-batches.store';
import { endHold, holdStatus, post, type HoldStatus } from './ledger.store';

/*
 * How a hold ends, settled (the money left) or released (it came back), inside a transaction
 * already open: one hold, or a batch of them. The Ledger's settleHold, releaseHold and
 * reverseHold open the transaction and batch them.
 */

export type HoldOutcome = 'settled' | 'released' | 'reversed';

/** A hold's ending. Settling and releasing report only `HoldEnded<'settled' | 'released'>`. */
export interface HoldEnded<Outcome extends HoldOutcome = HoldOutcome> {
  ref: HoldRef;
  /** What became of the hold: by this call when `posted`, else by the call that came first. */
  outcome: Outcome;
  /** Where the money went, when settled; where it came back from, when reversed. */
  settledTo?: SettlementAccount;
  /** The settling, releasing or reversing transaction (this call's, or the first one's). */
  txnId: string;
  /** False when the hold had already been settled, released or reversed: nothing changed. */
  posted: boolean;
}

export type HoldEnd = Exclude<HoldStatus, { status: 'held' }>;

/** A hold to settle or release, and the posting that does it. */
export interface Ending {
  ref: HoldRef;
  end: HoldEnd;
  posting: (held: HeldFunds) => LedgerPosting;
}

/** Ends the hold if it is still held; otherwise answers how it ended, having posted nothing. */
export async function endHeld(
  tx: PoolClient,
  { ref, end, posting }: Ending,
): Promise<HoldEnded<'settled' | 'released'>> {
  // Twice at most: a hold committed between the update and the read shows up as `held`.
  for (let attempt = 0; attempt < 2; attempt++) {
    const held = await endHold(tx, ref, end);
    if (held) {
      const ending = posting(held);
      // The hold row's status guards its ending, so the ending's id cannot be taken already.
      if (!(await post(tx, ending))) {
        throw new Error(`Ledger transaction ${ending.txnId} exists for a hold still held`);
      }
      return { ref, ...ended(ref, end), posted: true };
    }
    const status = await holdStatus(tx, ref);
    if (status === null) throw notFound(`ledger hold ${ref}`);
    if (status.status !== 'held') return { ref, ...ended(ref, status), posted: false };
  }
  throw new Error(`Ledger hold ${ref} could neither be ended nor read as ended`);
}

/**
 * Ends a batch of holds in one transaction. What they will write is locked first, in the ledger's
 * one lock order (`lockForEndings`), and they end merchant by merchant.
 */
export async function endTogether(
  tx: PoolClient,
  endings: Ending[],
): Promise<Array<HoldEnded<'settled' | 'released'>>> {
  const merchants = await lockForEndings(
    tx,
    endings.map((ending) => ending.ref),
  );
  const order = endings
    .map((ending, index) => ({ ending, index, merchant: merchants.get(ending.ref) ?? '' }))
    .sort((a, b) => (a.merchant < b.merchant ? -1 : a.merchant > b.merchant ? 1 : 0));
  const results: Array<HoldEnded<'settled' | 'released'>> = [];
  for (const { ending, index } of order) results[index] = await endHeld(tx, ending);
  return results;
}

/** What an ending reports, from how the hold ended. */
export function ended(
  ref: HoldRef,
  end: HoldEnd,
): Pick<HoldEnded<'settled' | 'released'>, 'outcome' | 'settledTo' | 'txnId'> {
  return end.status === 'settled'
    ? { outcome: 'settled', settledTo: end.settledTo, txnId: settledTxnId(ref) }
    : { outcome: 'released', txnId: releasedTxnId(ref) };
}
