import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, CONFIG, EVENT_STORE, type XaalisConfig } from '@xaalis/config';
import { ProjectionRunner } from '@xaalis/database';
import { type EventStore, handleCommand } from '@xaalis/event-store';
import { failpoint } from '@xaalis/failpoints';
import { type Clock, type Mode, newId, notFound } from '@xaalis/kernel';
import { ApiKeyAuthenticator } from '../api-keys/api-key.authenticator';
import { newApiKeySecret } from '../api-keys/api-key-secret';
import {
  type AccountUpdated,
  type ApiKeyKind,
  type MemberRole,
  type MerchantCommand,
  type MerchantEvent,
  merchantDecider,
  merchantStream,
} from '@xaalis/identity-domain';
import { asMerchantEvent } from '../merchant/merchant-event-guard';
import { IDENTITY_PROJECTION_RUNNER } from '../read-model/identity-projections';
import { IdentityQueries } from '../read-model/identity.queries';
import {
  type ApiKeyObject,
  type IssuedApiKey,
  type RolledApiKey,
  toApiKeyObject,
} from '../read-model/api-key.view';
import { WebhookSecretCipher } from '../webhook-secret/webhook-secret-cipher';
import type { AddedMember, CreatedMerchant } from './merchant.replies';

export interface RolledWebhookSecret {
  object: 'webhook_secret';
  /** Shown this once, like the secret given at creation. */
  webhook_secret: string;
  /** Until when the replaced secret still signs beside it; null when it stopped at once. */
  previous_expires_at: string | null;
  created_at: string;
}

/**
 * The write side of identity. Each command is decided on the merchant's stream, then the read
 * model is caught up to the append before answering: a key works the moment it is returned.
 * Secrets are made here (the decider stays pure) and leave only in the issuing response.
 */
@Injectable()
export class IdentityCommands {
  private readonly hashKey: string;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(IDENTITY_PROJECTION_RUNNER) private readonly projections: ProjectionRunner,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CONFIG) config: XaalisConfig,
    private readonly cipher: WebhookSecretCipher,
    private readonly queries: IdentityQueries,
    private readonly authenticator: ApiKeyAuthenticator,
  ) {
    if (!config.secretHashKey) throw new Error('config.secretHashKey is required to issue secrets');
    this.hashKey = config.secretHashKey;
  }

  async createMerchant(ownerUserId: string, name: string): Promise<CreatedMerchant> {
    const now = this.clock.now();
    const merchantId = newId('merchant', now.getTime());
    const webhookSecret = WebhookSecretCipher.newSecret();
    await this.run(merchantId, {
      type: 'CreateMerchant',
      data: {
        merchantId,
        name,
        ownerUserId,
        webhookSecretEncrypted: this.cipher.encrypt(webhookSecret, merchantId),
        now,
      },
    });
    return {
      object: 'merchant',
      id: merchantId,
      name,
      webhook_secret: webhookSecret,
      created_at: now.toISOString(),
    };
  }

  async addMember(merchantId: string, email: string, role: MemberRole): Promise<AddedMember> {
    const userId = await this.queries.userIdByEmail(email);
    if (!userId) throw notFound('user with this email');
    await this.run(merchantId, {
      type: 'AddMember',
      data: { userId, role, now: this.clock.now() },
    });
    return { merchant_id: merchantId, user_id: userId, role };
  }

  /**
   * `keyId` is the caller's, fixed by the request's idempotency key: a retry whose first run
   * died before answering gives that key a new secret (the first was never shown) and shows it.
   */
  async issueApiKey(
    merchantId: string,
    mode: Mode,
    kind: ApiKeyKind,
    scopes: string[] | null,
    keyId: string,
  ): Promise<IssuedApiKey> {
    const now = this.clock.now();
    const made = newApiKeySecret(kind, mode, this.hashKey);
    await this.run(merchantId, {
      type: 'IssueApiKey',
      data: {
        keyId,
        secretHash: made.secretHash,
        displayPrefix: made.displayPrefix,
        mode,
        kind,
        scopes,
        now,
      },
    });
    return this.issued(merchantId, mode, keyId, made.secret);
  }

  /** `newKeyId` is the caller's, fixed by the idempotency key, as `issueApiKey`'s `keyId`. */
  async rollApiKey(
    merchantId: string,
    mode: Mode,
    keyId: string,
    graceHours: number,
    newKeyId: string,
  ): Promise<RolledApiKey> {
    const previous = await this.queries.apiKey(merchantId, mode, keyId);
    const kind: ApiKeyKind = previous.kind === 'restricted' ? 'restricted' : 'secret';
    const now = this.clock.now();
    const made = newApiKeySecret(kind, mode, this.hashKey);
    await this.run(merchantId, {
      type: 'RollApiKey',
      data: {
        keyId,
        mode,
        kind,
        newKey: { keyId: newKeyId, secretHash: made.secretHash, displayPrefix: made.displayPrefix },
        graceHours,
        now,
      },
    });
    this.authenticator.forget(keyId);
    const issued = await this.issued(merchantId, mode, newKeyId, made.secret);
    return {
      ...issued,
      previous_key: toApiKeyObject(
        await this.queries.apiKey(merchantId, mode, keyId),
        this.clock.now(),
      ),
    };
  }

  async revokeApiKey(merchantId: string, mode: Mode, keyId: string): Promise<ApiKeyObject> {
    await this.run(merchantId, {
      type: 'RevokeApiKey',
      data: { keyId, mode, now: this.clock.now() },
    });
    this.authenticator.forget(keyId);
    return toApiKeyObject(await this.queries.apiKey(merchantId, mode, keyId), this.clock.now());
  }

  /**
   * `rollId` is the caller's, fixed by the idempotency key: a retry whose first run died before
   * answering rolls nothing more and shows the secret that run rolled in (kept encrypted).
   */
  async rollWebhookSecret(
    merchantId: string,
    overlapHours: number,
    rollId: string,
  ): Promise<RolledWebhookSecret> {
    const { state } = await this.decide(merchantId, {
      type: 'RollWebhookSecret',
      data: {
        rollId,
        webhookSecretEncrypted: this.cipher.encrypt(WebhookSecretCipher.newSecret(), merchantId),
        overlapHours,
        now: this.clock.now(),
      },
    });
    if (state.status !== 'active' || state.lastRoll?.rollId !== rollId) {
      throw new Error('RollWebhookSecret left no roll of this id');
    }
    return {
      object: 'webhook_secret',
      webhook_secret: this.cipher.decrypt(state.webhookSecretEncrypted, merchantId),
      previous_expires_at: state.lastRoll.previousExpiresAt,
      created_at: state.lastRoll.rolledAt,
    };
  }

  /** The change as recorded: the URL and its `updatedAt`, the time `account.updated` carries. */
  async updateAccount(
    merchantId: string,
    mode: Mode,
    webhookUrl: string,
  ): Promise<AccountUpdated['data']> {
    const [updated] = await this.run(merchantId, {
      type: 'UpdateAccount',
      data: { mode, webhookUrl, now: this.clock.now() },
    });
    if (updated?.type !== 'AccountUpdated') throw new Error('UpdateAccount decided nothing');
    return updated.data;
  }

  async setWaveIdentity(merchantId: string, aggregatedMerchantId: string): Promise<void> {
    await this.run(merchantId, {
      type: 'SetWaveIdentity',
      data: { aggregatedMerchantId, now: this.clock.now() },
    });
  }

  private async issued(
    merchantId: string,
    mode: Mode,
    keyId: string,
    secret: string,
  ): Promise<IssuedApiKey> {
    const key = await this.queries.apiKey(merchantId, mode, keyId);
    return { ...toApiKeyObject(key, this.clock.now()), secret_key: secret };
  }

  /** The events decided, once the read model has them. */
  private async run(merchantId: string, command: MerchantCommand): Promise<MerchantEvent[]> {
    const result = await this.decide(merchantId, command);
    return result.events.flatMap((event) => asMerchantEvent(event) ?? []);
  }

  /** The command decided on the merchant's stream, once the read model has what it appended. */
  private async decide(merchantId: string, command: MerchantCommand) {
    const result = await handleCommand(
      this.store,
      merchantStream(merchantId),
      merchantDecider,
      command,
    );
    failpoint('identity.after_append');
    await this.projections.catchUpTo(result.position);
    return result;
  }
}
