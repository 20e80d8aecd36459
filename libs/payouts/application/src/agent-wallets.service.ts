import { Inject, Injectable } from '@nestjs/common';
import { CLOCK } from '@xaalis/config';
import type {
  AgentKeyListReply,
  AgentKeyObjectReply,
  AgentKeyRef,
  AgentWalletListReply,
  AgentWalletRef,
  AgentWalletReply,
  AgentWalletSpendingReply,
  CreateAgentWalletRequest,
  IssueAgentKeyRequest,
  ListAgentWalletsRequest,
  UpdateAgentWalletRequest,
} from '@xaalis/contracts';
import { notFound, type Clock } from '@xaalis/kernel';
import {
  toAgentKeyObject,
  toAgentWalletObject,
  toAgentWalletWithSpending,
  type WalletPolicy,
} from '@xaalis/payouts-domain';
import { PayoutsCommands } from './payouts.commands';
import { PayoutsQueries } from './payouts.queries';

/**
 * Agent wallets and their keys (spec 4.3, CONTRACT 5): every change is a command on the wallet's
 * stream, so its policy's history replays; reads fold the stream, lists read the read model.
 */
@Injectable()
export class AgentWalletsService {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly commands: PayoutsCommands,
    private readonly queries: PayoutsQueries,
  ) {}

  /** The id is fixed by the idempotency key: a retry finds the wallet its first run made. */
  async create(request: CreateAgentWalletRequest): Promise<AgentWalletReply> {
    const { state } = await this.commands.wallet(
      request.agent_wallet_id,
      {
        type: 'CreateAgentWallet',
        data: {
          walletId: request.agent_wallet_id,
          merchantId: request.merchant_id,
          mode: request.mode,
          name: request.name,
          provider: request.provider,
          maxPayoutAmount: request.max_payout_amount,
          maxDailyAmount: request.max_daily_amount ?? null,
          allowedRecipientPhones: request.allowed_recipient_phones,
          now: this.clock.now(),
        },
      },
      { newStream: true },
    );
    // A retry's id under another merchant's key can only meet another merchant's wallet by a
    // collision of random ids; it is not shown.
    if (state.merchantId !== request.merchant_id || state.mode !== request.mode) {
      throw notFound('agent wallet');
    }
    return toAgentWalletObject(state);
  }

  async get(request: AgentWalletRef): Promise<AgentWalletReply> {
    const wallet = await this.queries.wallet(
      request.merchant_id,
      request.mode,
      request.agent_wallet_id,
    );
    return toAgentWalletObject(wallet);
  }

  async list(request: ListAgentWalletsRequest): Promise<AgentWalletListReply> {
    const rows = await this.queries.listWallets(request.merchant_id, request.mode, {
      limit: request.limit,
      startingAfter: request.starting_after,
    });
    return { data: rows.slice(0, request.limit), has_more: rows.length > request.limit };
  }

  /** CONTRACT 5's PATCH: the fields present change, and the policy's version goes up by one. */
  async update(request: UpdateAgentWalletRequest): Promise<AgentWalletReply> {
    await this.queries.wallet(request.merchant_id, request.mode, request.agent_wallet_id);
    const changes: Partial<WalletPolicy> = {};
    if (request.name !== undefined) changes.name = request.name;
    if (request.max_payout_amount !== undefined) {
      changes.maxPayoutAmount = request.max_payout_amount;
    }
    if (request.max_daily_amount !== undefined) changes.maxDailyAmount = request.max_daily_amount;
    if (request.allowed_recipient_phones !== undefined) {
      changes.allowedRecipientPhones = request.allowed_recipient_phones;
    }
    if (request.status !== undefined) changes.status = request.status;
    const { state } = await this.commands.wallet(request.agent_wallet_id, {
      type: 'UpdateAgentWalletPolicy',
      data: { changes, now: this.clock.now() },
    });
    return toAgentWalletObject(state);
  }

  /** The gateway made the secret and shows it once; the wallet keeps only its keyed hash. */
  async issueKey(request: IssueAgentKeyRequest): Promise<AgentKeyObjectReply> {
    await this.queries.wallet(request.merchant_id, request.mode, request.agent_wallet_id);
    const { state } = await this.commands.wallet(request.agent_wallet_id, {
      type: 'IssueAgentKey',
      data: { keyId: request.key_id, secretHash: request.secret_hash, now: this.clock.now() },
    });
    // The gateway finds agent keys in the read model: the key works once this answers.
    await this.queries.readModelsCaughtUp();
    return toAgentKeyObject(state, state.keys.get(request.key_id)!);
  }

  /** Newest first, never a secret. */
  async listKeys(request: AgentWalletRef): Promise<AgentKeyListReply> {
    const wallet = await this.queries.wallet(
      request.merchant_id,
      request.mode,
      request.agent_wallet_id,
    );
    const keys = [...wallet.keys.values()].sort((a, b) => (a.keyId < b.keyId ? 1 : -1));
    return { data: keys.map((key) => toAgentKeyObject(wallet, key)), has_more: false };
  }

  /**
   * Answered once the read model has the revoke: its projection announces the key in the
   * transaction that marks it revoked, so every gateway replica has forgotten it by then.
   */
  async revokeKey(request: AgentKeyRef): Promise<AgentKeyObjectReply> {
    const wallet = await this.queries.wallet(
      request.merchant_id,
      request.mode,
      request.agent_wallet_id,
    );
    if (!wallet.keys.has(request.key_id)) throw notFound('agent key');
    const { state } = await this.commands.wallet(wallet.walletId, {
      type: 'RevokeAgentKey',
      data: { keyId: request.key_id, now: this.clock.now() },
    });
    await this.queries.readModelsCaughtUp();
    return toAgentKeyObject(state, state.keys.get(request.key_id)!);
  }

  /** `GET /v1/agent/wallet`: with what the current Dakar day has spent and has left. */
  async agentWallet(request: AgentWalletRef): Promise<AgentWalletSpendingReply> {
    const wallet = await this.queries.wallet(
      request.merchant_id,
      request.mode,
      request.agent_wallet_id,
    );
    return toAgentWalletWithSpending(wallet, this.clock.now());
  }
}
