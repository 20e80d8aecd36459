import type { MerchantCommand } from './merchant.commands';
import type { IssuedKey, MerchantEvent } from './merchant.events';

/** Fixture builders for the merchant aggregate's given/when/then tests. */
export const MERCHANT_ID = 'mer_01JD0000000000000000000000';
export const OWNER_ID = 'usr_01JD0000000000000000000001';
export const DEV_ID = 'usr_01JD0000000000000000000002';
export const T0 = new Date('2026-11-22T10:00:00.000Z');
/** Ciphertexts are opaque to the aggregate: any distinct strings stand for distinct secrets. */
export const SECRET_AT_CREATION = 'v1.iv.tag.cipher';

export const merchantCreated = (at = T0): MerchantEvent => ({
  type: 'MerchantCreated',
  data: {
    merchantId: MERCHANT_ID,
    name: 'Boutique Ndiaye',
    ownerUserId: OWNER_ID,
    webhookSecretEncrypted: SECRET_AT_CREATION,
    createdAt: at.toISOString(),
  },
});

export const issuedKey = (overrides: Partial<IssuedKey> = {}): IssuedKey => ({
  keyId: 'key_01JD0000000000000000000010',
  mode: 'test',
  kind: 'secret',
  scopes: null,
  secretHash: 'a'.repeat(64),
  displayPrefix: 'sk_test_AbCd…WxYz',
  ...overrides,
});

export const apiKeyIssued = (key: IssuedKey = issuedKey(), at = T0): MerchantEvent => ({
  type: 'ApiKeyIssued',
  data: { ...key, merchantId: MERCHANT_ID, issuedAt: at.toISOString() },
});

export const newKeyMaterial = (keyId = 'key_01JD0000000000000000000020') => ({
  keyId,
  secretHash: 'b'.repeat(64),
  displayPrefix: 'sk_test_EfGh…StUv',
});

export const rollKey = (
  keyId: string,
  overrides: Partial<Extract<MerchantCommand, { type: 'RollApiKey' }>['data']> = {},
): MerchantCommand => ({
  type: 'RollApiKey',
  data: {
    keyId,
    mode: 'test',
    kind: 'secret',
    newKey: newKeyMaterial(),
    graceHours: 0,
    now: T0,
    ...overrides,
  },
});

export const rollWebhookSecret = (
  overrides: Partial<Extract<MerchantCommand, { type: 'RollWebhookSecret' }>['data']> = {},
): MerchantCommand => ({
  type: 'RollWebhookSecret',
  data: {
    rollId: ROLL_ID,
    webhookSecretEncrypted: 'v1.iv2.tag2.cipher2',
    overlapHours: 24,
    now: T0,
    ...overrides,
  },
});

export const ROLL_ID = 'whr_01JD0000000000000000000030';

export const webhookSecretRolled = (
  webhookSecretEncrypted: string,
  previous: { webhookSecretEncrypted: string; expiresAt: Date } | null,
  at = T0,
  rollId = ROLL_ID,
): MerchantEvent => ({
  type: 'WebhookSecretRolled',
  data: {
    merchantId: MERCHANT_ID,
    webhookSecretEncrypted,
    previous: previous && {
      webhookSecretEncrypted: previous.webhookSecretEncrypted,
      expiresAt: previous.expiresAt.toISOString(),
    },
    rolledAt: at.toISOString(),
    rollId,
  },
});
