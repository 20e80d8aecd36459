import type { Mode } from '@xaalis/kernel';

/**
 * Facts of the merchant aggregate (stream `merchant-<mer_id>`). Secrets never appear here in clear:
 * API keys only as their keyed hash and display prefix, the webhook secret only encrypted.
 */
export const MEMBER_ROLES = ['owner', 'developer'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];
export type ApiKeyKind = 'secret' | 'restricted';

export interface IssuedKey {
  keyId: string;
  mode: Mode;
  kind: ApiKeyKind;
  /** null for secret keys, the granted scopes for restricted keys. */
  scopes: string[] | null;
  secretHash: string;
  displayPrefix: string;
}

export type MerchantCreated = {
  type: 'MerchantCreated';
  data: {
    merchantId: string;
    name: string;
    ownerUserId: string;
    /** AES-256-GCM ciphertext: the webhook dispatcher must sign with it, so a hash would not do. */
    webhookSecretEncrypted: string;
    createdAt: string;
  };
};

export type MemberAdded = {
  type: 'MemberAdded';
  data: { merchantId: string; userId: string; role: MemberRole; addedAt: string };
};

export type AccountUpdated = {
  type: 'AccountUpdated';
  data: { merchantId: string; mode: Mode; webhookUrl: string; updatedAt: string };
};

export type WaveIdentitySet = {
  type: 'WaveIdentitySet';
  data: { merchantId: string; aggregatedMerchantId: string; setAt: string };
};

export type ApiKeyIssued = {
  type: 'ApiKeyIssued';
  data: IssuedKey & { merchantId: string; issuedAt: string };
};

export type ApiKeyRolled = {
  type: 'ApiKeyRolled';
  data: {
    merchantId: string;
    previousKeyId: string;
    /** Equal to `rolledAt` when the grace is 0: the old key stops at once. */
    scheduledRevokeAt: string;
    newKey: IssuedKey;
    rolledAt: string;
  };
};

/**
 * The request that issued this key (or rolled to it) ran again because its first run died before
 * answering: nobody saw that run's secret, so the key gets a new one, which the retry shows.
 */
export type ApiKeySecretReissued = {
  type: 'ApiKeySecretReissued';
  data: {
    merchantId: string;
    keyId: string;
    secretHash: string;
    displayPrefix: string;
    reissuedAt: string;
  };
};

export type ApiKeyRevoked = {
  type: 'ApiKeyRevoked';
  data: { merchantId: string; keyId: string; revokedAt: string };
};

export type WebhookSecretRolled = {
  type: 'WebhookSecretRolled';
  data: {
    merchantId: string;
    /** The new secret, encrypted as in MerchantCreated: it signs from now on. */
    webhookSecretEncrypted: string;
    /**
     * The secret it replaces, which keeps signing too (a second `v1`) until `expiresAt`; null when
     * the overlap is 0. Carried here rather than derived, so the projection is a keyed overwrite.
     */
    previous: { webhookSecretEncrypted: string; expiresAt: string } | null;
    rolledAt: string;
    /** The roll request's id (fixed by its idempotency key): a retry of it rolls nothing more. */
    rollId?: string;
  };
};

export type MerchantEvent =
  | MerchantCreated
  | MemberAdded
  | AccountUpdated
  | WaveIdentitySet
  | ApiKeyIssued
  | ApiKeyRolled
  | ApiKeySecretReissued
  | ApiKeyRevoked
  | WebhookSecretRolled;

export type MerchantEventType = MerchantEvent['type'];

export const MERCHANT_EVENT_TYPES: readonly MerchantEventType[] = [
  'MerchantCreated',
  'MemberAdded',
  'AccountUpdated',
  'WaveIdentitySet',
  'ApiKeyIssued',
  'ApiKeyRolled',
  'ApiKeySecretReissued',
  'ApiKeyRevoked',
  'WebhookSecretRolled',
];

export const MERCHANT_STREAM_PREFIX = 'merchant-';
export const merchantStream = (merchantId: string): string =>
  `${MERCHANT_STREAM_PREFIX}${merchantId}`;
