import type { Mode } from '@xaalis/kernel';
import type { ApiKeyKind, MemberRole } from './merchant.events';

/**
 * Everything random or secret is made before the decision (ids, the key's hash, the encrypted
 * webhook secret) and comes in with the command, so `decide` stays pure and replayable.
 */
export type CreateMerchant = {
  type: 'CreateMerchant';
  data: {
    merchantId: string;
    name: string;
    ownerUserId: string;
    webhookSecretEncrypted: string;
    now: Date;
  };
};

export type AddMember = {
  type: 'AddMember';
  data: { userId: string; role: MemberRole; now: Date };
};

export type UpdateAccount = {
  type: 'UpdateAccount';
  data: { mode: Mode; webhookUrl: string; now: Date };
};

export type SetWaveIdentity = {
  type: 'SetWaveIdentity';
  data: { aggregatedMerchantId: string; now: Date };
};

export interface NewKeyMaterial {
  keyId: string;
  secretHash: string;
  displayPrefix: string;
}

export type IssueApiKey = {
  type: 'IssueApiKey';
  data: NewKeyMaterial & { mode: Mode; kind: ApiKeyKind; scopes: string[] | null; now: Date };
};

export type RollApiKey = {
  type: 'RollApiKey';
  data: {
    keyId: string;
    mode: Mode;
    /** The replacement is of the same kind as the old key; the caller made its secret to match. */
    kind: ApiKeyKind;
    newKey: NewKeyMaterial;
    graceHours: number;
    now: Date;
  };
};

export type RevokeApiKey = {
  type: 'RevokeApiKey';
  data: { keyId: string; mode: Mode; now: Date };
};

/** The new secret arrives encrypted, like at creation; the current one is in the state. */
export type RollWebhookSecret = {
  type: 'RollWebhookSecret';
  data: { rollId: string; webhookSecretEncrypted: string; overlapHours: number; now: Date };
};

export type MerchantCommand =
  | CreateMerchant
  | AddMember
  | UpdateAccount
  | SetWaveIdentity
  | IssueApiKey
  | RollApiKey
  | RevokeApiKey
  | RollWebhookSecret;

export const MAX_GRACE_HOURS = 720;

/** A week: long enough to deploy the new secret everywhere, short enough to retire a leak. */
export const MAX_WEBHOOK_SECRET_OVERLAP_HOURS = 168;
export const DEFAULT_WEBHOOK_SECRET_OVERLAP_HOURS = 24;
