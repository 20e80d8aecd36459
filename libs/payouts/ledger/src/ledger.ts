import { Inject, Injectable } from '@nestjs/common';
import { StatementBatcher } from '@xaalis/batching';
import { PG_POOL } from '@xaalis/config';
import { scheduleJobs, type JobChange } from '@xaalis/jobs';
import { notFound } from '@xaalis/kernel';
import type { Pool, PoolClient } from 'pg';
import {
  holdPosting,
  paymentPosting,
  releasePosting,
  reversePosting,
  settlePosting,
  validCreditPayment,
  validHold,
  validReleaseHold,
  validReverseHold,
  validSettleHold,
  type CreditPayment,
  type HeldFunds,
  type Hold,
  type HoldRef,
  type LedgerPosting,
  type ReleaseHold,
  type ReverseHold,
  type SettleHold,
} from '@xaalis/ledger-domain';
import { insufficientFunds } from './insufficient-funds';
import {
  endHeld,
  ended,
  endTogether,
  type Ending,
  type HoldEnd,
  type HoldEnded,
} from './hold-endings';
import { postBatch } from './ledger-batches.store';

export type { HoldEnded, HoldOutcome } from './hold-endings';
import { holdStatus, lockHold, post, recordHold, type HoldStatus } from './ledger.store';
import { inTransaction } from './transaction';

interface HoldRequest {
  hold: Required<Hold>;
  jobs: JobChange[];
}

export interface Posted {
  txnId: string;
  /** False when this transaction id was posted before: nothing changed. */
  posted: boolean;
}

/**
 * The merchant balance ledger's postings. Each posting is one ledger transaction with a unique
 * id, so each payment, refund and payout moves money exactly once whatever the bus redelivers;
 * the running balances move in the same database transaction as the entries.
 *
 * Every method takes an optional `client` already inside a transaction (a bus consumer's
 * `processOnce`), and otherwise opens its own. Written for READ COMMITTED, where a concurrent
 * posting waits for the row it needs and then re-reads it; under REPEATABLE READ the caller gets
 * serialization failures (40001) to retry instead. Methods are `async` so that invalid input is a
 * rejected promise like every other failure, never a synchronous throw.
 */
@Injectable()
export class Ledger {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /** Holds made in their own transaction, batched (see `hold`). */
  private readonly holds = new StatementBatcher<HoldRequest, Posted>({
    maxBatch: 64,
    alone: (request) => this.holdAlone(request),
    together: (requests) => this.holdTogether(requests),
  });

  /**
   * provider_clearing −amount, merchant_available +(amount − fee), platform_fees +fee.
   *
   * Credits in their own transaction are batched as holds are (see `hold`): every payment of a
   * merchant succeeding at once credits the same balance rows, and one statement for a burst
   * (`postBatch`) holds them for as long as it runs, where a credit alone holds them across its
   * last round trips. A payment credited before (a redelivery, a refund's `credit_first`) is
   * left out by the statement and goes alone, where a repeat is told from a conflicting one.
   */
  async creditPayment(input: CreditPayment, client?: PoolClient): Promise<Posted> {
    const posting = paymentPosting(validCreditPayment(input));
    if (client) return inTransaction(this.pool, client, (tx) => this.postOnce(tx, posting));
    return this.credits.submit(posting);
  }

  private readonly credits = new StatementBatcher<LedgerPosting, Posted>({
    maxBatch: 64,
    alone: (posting) => this.creditAlone(posting),
    together: (postings) =>
      this.postTogether(
        postings,
        ({ txnId }) => txnId,
        (batch) => postBatch(this.pool, batch),
        (posting) => this.creditAlone(posting),
      ),
  });

  private creditAlone(posting: LedgerPosting): Promise<Posted> {
    return inTransaction(this.pool, undefined, (tx) => this.postOnce(tx, posting));
  }

  /**
   * merchant_available −(amount + fee), merchant_pending +(amount + fee), or
   * `insufficient_funds` and nothing changes. No balance is read first: the database refuses
   * the write that would take available below zero (a CHECK), and the row lock on the balance
   * makes concurrent holds take turns, so exactly as many succeed as the balance covers.
   *
   * `jobs` are written in the same transaction: what must exist exactly when the hold does (the
   * job that gives an unclaimed payout hold back).
   *
   * Holds in their own transaction are batched (`StatementBatcher`): those asked for while one is
   * on its way go next as one statement (`postBatch`), whose balance rows are locked once for all
   * of them. A merchant's holds take turns on its balance rows, and a turn lasts as long as round
   * trips to a process that is busy answering others: one turn per batch instead of one per hold,
   * and one round trip per turn. A batch the balance cannot cover as a whole fails, and each of
   * its holds is then tried alone; a hold posted before goes alone too (a repeat).
   */
  async hold(input: Hold, client?: PoolClient, jobs: JobChange[] = []): Promise<Posted> {
    const hold = validHold(input);
    if (client) return this.holdAlone({ hold, jobs }, client);
    return this.holds.submit({ hold, jobs });
  }

  private holdAlone({ hold, jobs }: HoldRequest, client?: PoolClient): Promise<Posted> {
    return inTransaction(this.pool, client, async (tx) => {
      if (jobs.length > 0) await scheduleJobs(tx, jobs);
      const posted = await this.postOnce(tx, holdPosting(hold)).catch((error: unknown) => {
        throw insufficientFunds(error, hold) ?? error;
      });
      if (posted.posted) await recordHold(tx, hold);
      return posted;
    });
  }

  private holdTogether(requests: HoldRequest[]): Promise<Array<Posted | Promise<Posted>>> {
    return this.postTogether(
      requests,
      ({ hold }) => hold.ref,
      (batch) =>
        postBatch(
          this.pool,
          batch.map(({ hold }) => holdPosting(hold)),
          batch.map(({ hold }) => hold),
          batch.flatMap(({ jobs }) => jobs),
        ),
      (request) => this.holdAlone(request),
    );
  }

  /**
   * A batch in one statement (`send`, a `postBatch`), each transaction id once: a request whose
   * posting the statement did not post (made before, or its id twice in the batch) is answered
   * by `alone`, after it.
   */
  private async postTogether<Request>(
    requests: Request[],
    txnIdOf: (request: Request) => string,
    send: (batch: Request[]) => Promise<Set<string>>,
    alone: (request: Request) => Promise<Posted>,
  ): Promise<Array<Posted | Promise<Posted>>> {
    const firsts = new Map<string, Request>();
    for (const request of requests) {
      if (!firsts.has(txnIdOf(request))) firsts.set(txnIdOf(request), request);
    }
    const posted = await send([...firsts.values()]);
    return requests.map((request) => {
      const txnId = txnIdOf(request);
      return firsts.get(txnId) === request && posted.has(txnId)
        ? { txnId, posted: true }
        : alone(request);
    });
  }

  /**
   * The money leaves: merchant_pending −(amount + fee), `to` +amount, platform_fees +fee.
   * `not_found` for a hold never made.
   */
  async settleHold(
    input: SettleHold,
    client?: PoolClient,
  ): Promise<HoldEnded<'settled' | 'released'>> {
    const { ref, to } = validSettleHold(input);
    return this.endHold(ref, { status: 'settled', settledTo: to }, client, (held) =>
      settlePosting(held, to),
    );
  }

  /** The refund or payout failed: merchant_pending −(amount + fee), merchant_available +(amount + fee). */
  async releaseHold(
    input: ReleaseHold,
    client?: PoolClient,
  ): Promise<HoldEnded<'settled' | 'released'>> {
    const { ref } = validReleaseHold(input);
    return this.endHold(ref, { status: 'released' }, client, releasePosting);
  }

  /**
   * The provider took back a transfer it had confirmed (a later `reversed` from Wave): a settled
   * hold's reversal gives merchant_available +(amount + fee), from the account it was settled to
   * −amount and platform_fees −fee, once. A hold still held (its settle never came, a crash) is
   * released instead, and a released one changes nothing: either way the money is back once.
   * `not_found` for a hold never made.
   *
   * The hold stays `settled`; the `<ref>:reversed` transaction is the record of the reversal, and
   * its id makes a repeat post nothing. The hold's row lock orders a reversal and a concurrent
   * settle or release, so the reversal never misses a settle that commits while it runs.
   */
  async reverseHold(input: ReverseHold, client?: PoolClient): Promise<HoldEnded> {
    const { ref } = validReverseHold(input);
    return inTransaction(this.pool, client, async (tx) => {
      const hold = await lockHold(tx, ref);
      if (hold === null) throw notFound(`ledger hold ${ref}`);
      const { held, status } = hold;
      switch (status.status) {
        case 'held':
          // Locked and held, so the release below cannot find it ended by anyone else.
          return endHeld(tx, { ref, end: { status: 'released' }, posting: releasePosting });
        case 'settled': {
          const { txnId, posted } = await this.postOnce(tx, reversePosting(held, status.settledTo));
          return { ref, outcome: 'reversed', settledTo: status.settledTo, txnId, posted };
        }
        case 'released':
          return { ref, ...ended(ref, status), posted: false };
        default: {
          const unexpected: never = status;
          throw new Error(`Unknown hold status ${JSON.stringify(unexpected)}`);
        }
      }
    });
  }

  /** Where a hold stands (one read, no transaction); null for a hold never made. */
  async holdStatus(ref: HoldRef): Promise<HoldStatus | null> {
    const client = await this.pool.connect();
    try {
      return await holdStatus(client, ref);
    } finally {
      client.release();
    }
  }

  private async postOnce(tx: PoolClient, posting: LedgerPosting): Promise<Posted> {
    return { txnId: posting.txnId, posted: await post(tx, posting) };
  }

  private endHold(
    ref: HoldRef,
    end: HoldEnd,
    client: PoolClient | undefined,
    posting: (held: HeldFunds) => LedgerPosting,
  ): Promise<HoldEnded<'settled' | 'released'>> {
    const ending = { ref, end, posting };
    if (client) return endHeld(client, ending);
    return this.endings.submit(ending);
  }

  /**
   * Settlements and releases in their own transaction, batched as holds are (see `hold`): those
   * asked for while one is on its way end together, in one transaction, so that a burst of them
   * takes a merchant's balance rows once and one connection, not one of each per hold
   * (`endTogether`).
   */
  private readonly endings = new StatementBatcher<Ending, HoldEnded<'settled' | 'released'>>({
    maxBatch: 64,
    alone: (ending) => inTransaction(this.pool, undefined, (tx) => endHeld(tx, ending)),
    together: (endings) => inTransaction(this.pool, undefined, (tx) => endTogether(tx, endings)),
  });
}
