import { assertNever, invalidState, notFound, validationError, type Decider } from '@xaalis/kernel';
import { isKnownScope } from './api-key-scopes';
import {
  MAX_GRACE_HOURS,
  MAX_WEBHOOK_SECRET_OVERLAP_HOURS,
  type AddMember,
  type CreateMerchant,
  type IssueApiKey,
  type MerchantCommand,
  type NewKeyMaterial,
  type RevokeApiKey,
  type RollApiKey,
  type RollWebhookSecret,
  type SetWaveIdentity,
  type UpdateAccount,
} from './merchant.commands';
import type { MerchantEvent } from './merchant.events';
import {
  evolve,
  initialState,
  keyStatus,
  type KeyState,
  type MerchantState,
} from './merchant.state';

type Active = Extract<MerchantState, { status: 'active' }>;
const HOUR_MS = 3_600_000;

function requireMerchant(state: MerchantState): Active {
  if (state.status === 'absent') throw notFound('merchant');
  return state;
}

/** A key of the other mode is as unknown as a key that never existed (CONTRACT 5). */
function requireKey(state: Active, keyId: string, mode: string): KeyState {
  const key = state.keys[keyId];
  if (!key || key.mode !== mode) throw notFound('API key');
  return key;
}

function createMerchant({ data }: CreateMerchant, state: MerchantState): MerchantEvent[] {
  if (state.status !== 'absent') throw invalidState('The merchant already exists.');
  return [
    {
      type: 'MerchantCreated',
      data: {
        merchantId: data.merchantId,
        name: data.name,
        ownerUserId: data.ownerUserId,
        webhookSecretEncrypted: data.webhookSecretEncrypted,
        createdAt: data.now.toISOString(),
      },
    },
  ];
}

function addMember({ data }: AddMember, state: MerchantState): MerchantEvent[] {
  const merchant = requireMerchant(state);
  if (merchant.members[data.userId] !== undefined) {
    throw invalidState('This user is already a member of the merchant.');
  }
  return [
    {
      type: 'MemberAdded',
      data: {
        merchantId: merchant.merchantId,
        userId: data.userId,
        role: data.role,
        addedAt: data.now.toISOString(),
      },
    },
  ];
}

function updateAccount({ data }: UpdateAccount, state: MerchantState): MerchantEvent[] {
  const merchant = requireMerchant(state);
  if (!data.webhookUrl.startsWith('https://')) {
    throw validationError([{ field: 'webhook_url', issue: 'must start with https://' }]);
  }
  return [
    {
      type: 'AccountUpdated',
      data: {
        merchantId: merchant.merchantId,
        mode: data.mode,
        webhookUrl: data.webhookUrl,
        updatedAt: data.now.toISOString(),
      },
    },
  ];
}

function setWaveIdentity({ data }: SetWaveIdentity, state: MerchantState): MerchantEvent[] {
  const merchant = requireMerchant(state);
  if (data.aggregatedMerchantId.trim() === '') {
    throw validationError([{ field: 'aggregated_merchant_id', issue: 'must not be empty' }]);
  }
  return [
    {
      type: 'WaveIdentitySet',
      data: {
        merchantId: merchant.merchantId,
        aggregatedMerchantId: data.aggregatedMerchantId,
        setAt: data.now.toISOString(),
      },
    },
  ];
}

function checkScopes(kind: IssueApiKey['data']['kind'], scopes: string[] | null): void {
  if (kind === 'secret') {
    if (scopes !== null)
      throw validationError([{ field: 'scopes', issue: 'secret keys carry no scopes' }]);
    return;
  }
  if (scopes === null || scopes.length === 0) {
    throw validationError([{ field: 'scopes', issue: 'must list at least one scope' }]);
  }
  const issues = scopes.flatMap((scope, index) =>
    isKnownScope(scope) ? [] : [{ field: `scopes[${index}]`, issue: `unknown scope "${scope}"` }],
  );
  if (issues.length > 0) throw validationError(issues, 'Unknown scope.');
}

/**
 * A key id is fixed by the idempotency key of the request that makes it: a key already there is
 * that request's first run, which died before answering. Its secret was never shown, so the key
 * gets a new one for the retry to show.
 */
function reissueSecret(
  merchant: Active,
  key: KeyState,
  material: NewKeyMaterial,
  now: Date,
): MerchantEvent[] {
  if (key.revokedAt !== null) throw invalidState('This API key is revoked.');
  return [
    {
      type: 'ApiKeySecretReissued',
      data: {
        merchantId: merchant.merchantId,
        keyId: key.keyId,
        secretHash: material.secretHash,
        displayPrefix: material.displayPrefix,
        reissuedAt: now.toISOString(),
      },
    },
  ];
}

function issueApiKey({ data }: IssueApiKey, state: MerchantState): MerchantEvent[] {
  const merchant = requireMerchant(state);
  checkScopes(data.kind, data.scopes);
  const existing = merchant.keys[data.keyId];
  if (existing) {
    if (existing.mode !== data.mode || existing.kind !== data.kind) {
      throw invalidState('This key id is already used.');
    }
    return reissueSecret(merchant, existing, data, data.now);
  }
  return [
    {
      type: 'ApiKeyIssued',
      data: {
        merchantId: merchant.merchantId,
        keyId: data.keyId,
        mode: data.mode,
        kind: data.kind,
        scopes: data.scopes === null ? null : [...new Set(data.scopes)],
        secretHash: data.secretHash,
        displayPrefix: data.displayPrefix,
        issuedAt: data.now.toISOString(),
      },
    },
  ];
}

function rollApiKey({ data }: RollApiKey, state: MerchantState): MerchantEvent[] {
  const merchant = requireMerchant(state);
  const key = requireKey(merchant, data.keyId, data.mode);
  const replacement = merchant.keys[data.newKey.keyId];
  if (replacement) {
    // The roll's first run (the replacement's id is fixed by the idempotency key).
    if (replacement.mode !== key.mode || key.scheduledRevokeAt === null) {
      throw invalidState('This key id is already used.');
    }
    return reissueSecret(merchant, replacement, data.newKey, data.now);
  }
  if (
    !Number.isInteger(data.graceHours) ||
    data.graceHours < 0 ||
    data.graceHours > MAX_GRACE_HOURS
  ) {
    throw validationError([
      { field: 'grace_hours', issue: `must be an integer from 0 to ${MAX_GRACE_HOURS}` },
    ]);
  }
  const status = keyStatus(key, data.now);
  switch (status) {
    case 'revoked':
      throw invalidState('This API key is revoked.');
    case 'expiring':
      // Rolling twice would leave two live successors of one key; roll the replacement instead.
      throw invalidState('This API key has already been rolled.');
    case 'active':
      break;
    default:
      assertNever(status);
  }
  if (key.kind !== data.kind)
    throw invalidState('The replacement must be of the same kind as the key.');
  return [
    {
      type: 'ApiKeyRolled',
      data: {
        merchantId: merchant.merchantId,
        previousKeyId: key.keyId,
        scheduledRevokeAt: new Date(data.now.getTime() + data.graceHours * HOUR_MS).toISOString(),
        newKey: { ...data.newKey, mode: key.mode, kind: key.kind, scopes: key.scopes },
        rolledAt: data.now.toISOString(),
      },
    },
  ];
}

function revokeApiKey({ data }: RevokeApiKey, state: MerchantState): MerchantEvent[] {
  const merchant = requireMerchant(state);
  const key = requireKey(merchant, data.keyId, data.mode);
  // A key still in its roll grace may be cut short; one already dead cannot die twice.
  if (keyStatus(key, data.now) === 'revoked')
    throw invalidState('This API key is already revoked.');
  return [
    {
      type: 'ApiKeyRevoked',
      data: {
        merchantId: merchant.merchantId,
        keyId: key.keyId,
        revokedAt: data.now.toISOString(),
      },
    },
  ];
}

/**
 * The new secret signs at once; the current one keeps signing beside it for the overlap, so a
 * merchant can deploy the new one before the old stops verifying. Rolling again during an overlap
 * retires the older secret at once: at most two ever sign, the newest two.
 */
function rollWebhookSecret({ data }: RollWebhookSecret, state: MerchantState): MerchantEvent[] {
  const merchant = requireMerchant(state);
  // A retry of the latest roll (its first run died before answering): it has rolled already.
  if (merchant.lastRoll?.rollId === data.rollId) return [];
  const { overlapHours } = data;
  if (
    !Number.isInteger(overlapHours) ||
    overlapHours < 0 ||
    overlapHours > MAX_WEBHOOK_SECRET_OVERLAP_HOURS
  ) {
    throw validationError([
      {
        field: 'overlap_hours',
        issue: `must be an integer from 0 to ${MAX_WEBHOOK_SECRET_OVERLAP_HOURS}`,
      },
    ]);
  }
  if (data.webhookSecretEncrypted === merchant.webhookSecretEncrypted) {
    throw invalidState('The new webhook secret must differ from the current one.');
  }
  return [
    {
      type: 'WebhookSecretRolled',
      data: {
        merchantId: merchant.merchantId,
        webhookSecretEncrypted: data.webhookSecretEncrypted,
        previous:
          overlapHours === 0
            ? null
            : {
                webhookSecretEncrypted: merchant.webhookSecretEncrypted,
                expiresAt: new Date(data.now.getTime() + overlapHours * HOUR_MS).toISOString(),
              },
        rolledAt: data.now.toISOString(),
        rollId: data.rollId,
      },
    },
  ];
}

export function decide(command: MerchantCommand, state: MerchantState): MerchantEvent[] {
  switch (command.type) {
    case 'CreateMerchant':
      return createMerchant(command, state);
    case 'AddMember':
      return addMember(command, state);
    case 'UpdateAccount':
      return updateAccount(command, state);
    case 'SetWaveIdentity':
      return setWaveIdentity(command, state);
    case 'IssueApiKey':
      return issueApiKey(command, state);
    case 'RollApiKey':
      return rollApiKey(command, state);
    case 'RevokeApiKey':
      return revokeApiKey(command, state);
    case 'RollWebhookSecret':
      return rollWebhookSecret(command, state);
    default:
      return assertNever(command);
  }
}

export const merchantDecider: Decider<MerchantState, MerchantCommand, MerchantEvent> = {
  initialState,
  evolve,
  decide,
};
