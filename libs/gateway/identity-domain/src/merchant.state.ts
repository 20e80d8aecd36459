import { assertNever, type Mode } from '@xaalis/kernel';
import type { ApiKeyKind, IssuedKey, MemberRole, MerchantEvent } from './merchant.events';

export interface KeyState {
  keyId: string;
  mode: Mode;
  kind: ApiKeyKind;
  scopes: string[] | null;
  revokedAt: string | null;
  scheduledRevokeAt: string | null;
}

export type MerchantState =
  | { status: 'absent' }
  | {
      status: 'active';
      merchantId: string;
      members: Readonly<Record<string, MemberRole>>;
      keys: Readonly<Record<string, KeyState>>;
      /** Ciphertext of the current webhook secret: a roll names it as the one it replaces. */
      webhookSecretEncrypted: string;
      /** The latest roll of the webhook secret, for a retry of it to be answered. */
      lastRoll: LastRoll | null;
    };

export interface LastRoll {
  rollId: string | null;
  previousExpiresAt: string | null;
  rolledAt: string;
}

export const initialState = (): MerchantState => ({ status: 'absent' });

const newKeyState = (key: IssuedKey): KeyState => ({
  keyId: key.keyId,
  mode: key.mode,
  kind: key.kind,
  scopes: key.scopes,
  revokedAt: null,
  scheduledRevokeAt: null,
});

/**
 * Only what a later decision needs is folded: members (to refuse duplicates), keys (to refuse
 * rolling or revoking a dead one), the current webhook secret (encrypted, for the next roll) and
 * the latest roll (to answer its retry). Names, URLs and identities live in the read model.
 */
export function evolve(state: MerchantState, event: MerchantEvent): MerchantState {
  if (event.type === 'MerchantCreated') {
    return {
      status: 'active',
      merchantId: event.data.merchantId,
      members: { [event.data.ownerUserId]: 'owner' },
      keys: {},
      webhookSecretEncrypted: event.data.webhookSecretEncrypted,
      lastRoll: null,
    };
  }
  if (state.status === 'absent') return state;
  switch (event.type) {
    case 'MemberAdded':
      return { ...state, members: { ...state.members, [event.data.userId]: event.data.role } };
    case 'AccountUpdated':
    case 'WaveIdentitySet':
      return state;
    case 'ApiKeyIssued':
      return { ...state, keys: { ...state.keys, [event.data.keyId]: newKeyState(event.data) } };
    case 'ApiKeyRolled': {
      const previous = state.keys[event.data.previousKeyId];
      const keys = { ...state.keys, [event.data.newKey.keyId]: newKeyState(event.data.newKey) };
      if (previous)
        keys[previous.keyId] = { ...previous, scheduledRevokeAt: event.data.scheduledRevokeAt };
      return { ...state, keys };
    }
    case 'ApiKeySecretReissued':
      return state;
    case 'ApiKeyRevoked': {
      const key = state.keys[event.data.keyId];
      if (!key) return state;
      return {
        ...state,
        keys: { ...state.keys, [key.keyId]: { ...key, revokedAt: event.data.revokedAt } },
      };
    }
    case 'WebhookSecretRolled':
      return {
        ...state,
        webhookSecretEncrypted: event.data.webhookSecretEncrypted,
        lastRoll: {
          rollId: event.data.rollId ?? null,
          previousExpiresAt: event.data.previous?.expiresAt ?? null,
          rolledAt: event.data.rolledAt,
        },
      };
    default:
      return assertNever(event);
  }
}

export type KeyStatus = 'active' | 'expiring' | 'revoked';

/**
 * A rolled key is revoked once its grace has run out, without any event marking the moment: the
 * schedule is the fact, the clock decides. Guards and decisions both use this one rule.
 */
export function keyStatus(
  key: { revokedAt: string | Date | null; scheduledRevokeAt: string | Date | null },
  now: Date,
): KeyStatus {
  if (key.revokedAt !== null) return 'revoked';
  if (key.scheduledRevokeAt === null) return 'active';
  return new Date(key.scheduledRevokeAt).getTime() <= now.getTime() ? 'revoked' : 'expiring';
}
