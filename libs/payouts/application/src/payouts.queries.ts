import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { EVENT_STORE, PG_POOL } from '@xaalis/config';
import type { ProjectionRunner } from '@xaalis/database';
import { foldStream, type EventStore } from '@xaalis/event-store';
import { requireOwnCursor } from '@xaalis/http';
import { notFound, type Mode } from '@xaalis/kernel';
import {
  agentWalletExists,
  agentWalletStream,
  inAgentWalletOrder,
  payoutExists,
  payoutStream,
  type AgentWallet,
  type AgentWalletObject,
  type Payout,
  type PayoutAccepted,
} from '@xaalis/payouts-domain';
import { agentWalletEventOf, PAYOUT_FOLD, WALLET_FOLD } from './payout-event-guards';
import { PayoutsCommands } from './payouts.commands';
import { PAYOUTS_PROJECTION_RUNNER } from './payouts.tokens';

export interface Page {
  limit: number;
  startingAfter?: string;
}

const WALLET_ID = /^aw_[0-9A-Za-z]{20,40}$/;
const PAYOUT_ID = /^po_[0-9A-Za-z]{20,40}$/;

/**
 * Reads of wallets and payouts. One wallet or payout is folded from its stream, the truth, so a
 * caller reads its own writes in either event store; lists come from the `agent_wallets` and
 * `payouts` read models, brought up to date first. Another merchant's or the other mode's object
 * is simply not found.
 */
@Injectable()
export class PayoutsQueries {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PAYOUTS_PROJECTION_RUNNER) private readonly projections: ProjectionRunner,
    private readonly commands: PayoutsCommands,
  ) {}

  /**
   * Read from what this process last folded of the wallet on (`PayoutsCommands.wallets`). With
   * `cached`, what the cache holds is taken as it is, without asking the store: for a judgement
   * that a command on the stream makes again (a payout's), never for what a client reads.
   */
  async findWallet(
    walletId: string,
    options: { cached?: boolean } = {},
  ): Promise<AgentWallet | undefined> {
    if (!WALLET_ID.test(walletId)) return undefined;
    const stream = agentWalletStream(walletId);
    const folded =
      (options.cached ? this.commands.wallets.get(stream) : undefined) ??
      (await foldStream(this.store, stream, WALLET_FOLD, this.commands.wallets));
    return folded && agentWalletExists(folded.state) ? folded.state : undefined;
  }

  async wallet(
    merchantId: string,
    mode: Mode,
    walletId: string,
    options: { cached?: boolean } = {},
  ): Promise<AgentWallet> {
    const wallet = await this.findWallet(walletId, options);
    if (!wallet || wallet.merchantId !== merchantId || wallet.mode !== mode) {
      throw notFound('agent wallet');
    }
    return wallet;
  }

  async findPayout(payoutId: string): Promise<Payout | undefined> {
    if (!PAYOUT_ID.test(payoutId)) return undefined;
    const folded = await foldStream(
      this.store,
      payoutStream(payoutId),
      PAYOUT_FOLD,
      this.commands.payouts,
    );
    return folded && payoutExists(folded.state) ? folded.state : undefined;
  }

  async payout(merchantId: string, mode: Mode, payoutId: string): Promise<Payout> {
    const payout = await this.findPayout(payoutId);
    if (!payout || payout.merchantId !== merchantId || payout.mode !== mode) {
      throw notFound('payout');
    }
    return payout;
  }

  /**
   * The wallet's acceptance of a payout, read from its stream: only when a crash left the
   * payout's own stream to be created, so a long stream is read rarely.
   */
  async acceptance(walletId: string, payoutId: string): Promise<PayoutAccepted['data']> {
    const { events } = await this.store.readStream(agentWalletStream(walletId));
    for (const recorded of events) {
      const event = agentWalletEventOf(recorded);
      if (event?.type === 'PayoutAccepted' && event.data.payoutId === payoutId) return event.data;
    }
    throw notFound('payout');
  }

  /** Newest first, `limit + 1` rows (the extra one only says there is more). */
  async listWallets(merchantId: string, mode: Mode, page: Page): Promise<AgentWalletObject[]> {
    await this.readModelsCaughtUp();
    await requireOwnCursor(this.pool, 'agent_wallets', { merchantId, mode }, page.startingAfter);
    const { rows } = await this.pool.query<{ object: AgentWalletObject }>({
      name: 'agent_wallets_list',
      text: `SELECT object FROM agent_wallets
              WHERE merchant_id = $1 AND mode = $2 AND ($3::text IS NULL OR id < $3)
              ORDER BY id DESC
              LIMIT $4`,
      values: [merchantId, mode, page.startingAfter ?? null, page.limit + 1],
    });
    return rows.map((row) => inAgentWalletOrder(row.object));
  }

  /** A wallet's payouts, newest first, `limit + 1` rows; by `client_reference` when given. */
  async listPayouts(
    merchantId: string,
    mode: Mode,
    walletId: string,
    page: Page & { clientReference?: string },
  ): Promise<Payout[]> {
    await this.wallet(merchantId, mode, walletId);
    await this.readModelsCaughtUp();
    await requireOwnCursor(this.pool, 'payouts', { merchantId, mode }, page.startingAfter);
    const { rows } = await this.pool.query<{ state: Payout }>({
      name: 'payouts_wallet_list',
      text: `SELECT state FROM payouts
              WHERE merchant_id = $1 AND mode = $2 AND agent_wallet_id = $3
                AND ($4::text IS NULL OR client_reference = $4)
                AND ($5::text IS NULL OR id < $5)
              ORDER BY id DESC
              LIMIT $6`,
      values: [
        merchantId,
        mode,
        walletId,
        page.clientReference ?? null,
        page.startingAfter ?? null,
        page.limit + 1,
      ],
    });
    return rows.map((row) => row.state);
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
