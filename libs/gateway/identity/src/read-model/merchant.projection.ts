import { assertNever } from '@xaalis/kernel';
import { announceApiKeyChanged, type PrismaTx, type Projection } from '@xaalis/database';
import type { RecordedEvent } from '@xaalis/event-store';
import { asMerchantEvent } from '../merchant/merchant-event-guard';
import {
  MERCHANT_STREAM_PREFIX,
  type IssuedKey,
  type MerchantEvent,
} from '@xaalis/identity-domain';

export const MERCHANT_PROJECTION = 'identity-merchants';

const keyRow = (merchantId: string, key: IssuedKey, createdAt: string) => ({
  id: key.keyId,
  merchantId,
  mode: key.mode,
  kind: key.kind,
  scopes: key.scopes ?? [],
  secretHash: key.secretHash,
  displayPrefix: key.displayPrefix,
  createdAt: new Date(createdAt),
});

/**
 * Every write is an upsert or a keyed update, so applying an event twice (a crash between the
 * write and the checkpoint of another runner) leaves the same rows.
 */
async function applyEvent(event: MerchantEvent, tx: PrismaTx): Promise<void> {
  switch (event.type) {
    case 'MerchantCreated': {
      const { merchantId, name, ownerUserId, webhookSecretEncrypted, createdAt } = event.data;
      await tx.merchant.upsert({
        where: { id: merchantId },
        create: { id: merchantId, name, webhookSecretEncrypted, createdAt: new Date(createdAt) },
        update: {},
      });
      await tx.merchantMember.upsert({
        where: { merchantId_userId: { merchantId, userId: ownerUserId } },
        create: { merchantId, userId: ownerUserId, role: 'owner', createdAt: new Date(createdAt) },
        update: {},
      });
      return;
    }
    case 'MemberAdded': {
      const { merchantId, userId, role, addedAt } = event.data;
      await tx.merchantMember.upsert({
        where: { merchantId_userId: { merchantId, userId } },
        create: { merchantId, userId, role, createdAt: new Date(addedAt) },
        update: { role },
      });
      return;
    }
    case 'AccountUpdated': {
      const { merchantId, mode, webhookUrl, updatedAt } = event.data;
      await tx.merchantAccount.upsert({
        where: { merchantId_mode: { merchantId, mode } },
        create: { merchantId, mode, webhookUrl, updatedAt: new Date(updatedAt) },
        update: { webhookUrl, updatedAt: new Date(updatedAt) },
      });
      return;
    }
    case 'WaveIdentitySet': {
      const { merchantId, aggregatedMerchantId, setAt } = event.data;
      const key = { merchantId, mode: 'live', provider: 'wave' };
      await tx.providerIdentity.upsert({
        where: { merchantId_mode_provider: key },
        create: { ...key, aggregatedMerchantId, updatedAt: new Date(setAt) },
        update: { aggregatedMerchantId, updatedAt: new Date(setAt) },
      });
      return;
    }
    case 'ApiKeyIssued': {
      const row = keyRow(event.data.merchantId, event.data, event.data.issuedAt);
      await tx.apiKey.upsert({ where: { id: row.id }, create: row, update: {} });
      return;
    }
    case 'ApiKeyRolled': {
      const { merchantId, previousKeyId, newKey, scheduledRevokeAt, rolledAt } = event.data;
      const row = keyRow(merchantId, newKey, rolledAt);
      await tx.apiKey.upsert({ where: { id: row.id }, create: row, update: {} });
      await tx.apiKey.updateMany({
        where: { id: previousKeyId, merchantId },
        data: { scheduledRevokeAt: new Date(scheduledRevokeAt) },
      });
      await announceApiKeyChanged(tx, previousKeyId);
      return;
    }
    case 'ApiKeySecretReissued': {
      const { merchantId, keyId, secretHash, displayPrefix } = event.data;
      await tx.apiKey.updateMany({
        where: { id: keyId, merchantId },
        data: { secretHash, displayPrefix },
      });
      await announceApiKeyChanged(tx, keyId);
      return;
    }
    case 'ApiKeyRevoked': {
      const { merchantId, keyId, revokedAt } = event.data;
      await tx.apiKey.updateMany({
        where: { id: keyId, merchantId },
        data: { revokedAt: new Date(revokedAt) },
      });
      await announceApiKeyChanged(tx, keyId);
      return;
    }
    case 'WebhookSecretRolled': {
      const { merchantId, webhookSecretEncrypted, previous } = event.data;
      await tx.merchant.updateMany({
        where: { id: merchantId },
        data: {
          webhookSecretEncrypted,
          previousWebhookSecretEncrypted: previous?.webhookSecretEncrypted ?? null,
          previousWebhookSecretExpiresAt: previous ? new Date(previous.expiresAt) : null,
        },
      });
      return;
    }
    default:
      assertNever(event);
  }
}

/** Merchants, members, API keys, accounts and provider identities, from the `merchant-` streams. */
export const merchantProjection: Projection = {
  name: MERCHANT_PROJECTION,
  streamPrefixes: [MERCHANT_STREAM_PREFIX],
  async apply(event: RecordedEvent, tx: PrismaTx): Promise<void> {
    const merchantEvent = asMerchantEvent(event);
    if (merchantEvent) await applyEvent(merchantEvent, tx);
  },
  async reset(tx: PrismaTx): Promise<void> {
    // `api_key_usage` is operational, not derived from events: a replay keeps it.
    await tx.apiKey.deleteMany({});
    await tx.merchantMember.deleteMany({});
    await tx.merchantAccount.deleteMany({});
    await tx.providerIdentity.deleteMany({});
    await tx.merchant.deleteMany({});
  },
};
