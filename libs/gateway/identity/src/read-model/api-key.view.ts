import { type Mode } from '@xaalis/kernel';
import { keyStatus } from '../merchant/merchant.state';

/** An API key row as the read model holds it, with its last use joined in. */
export interface ApiKeyRecord {
  id: string;
  merchantId: string;
  mode: string;
  kind: string;
  scopes: string[];
  displayPrefix: string;
  createdAt: Date;
  revokedAt: Date | null;
  scheduledRevokeAt: Date | null;
  lastUsedAt: Date | null;
}

/** Spec 2.7. `secret_key` is added only by the issuing calls, never from a stored row. */
export interface ApiKeyObject {
  object: 'api_key';
  id: string;
  mode: Mode;
  scopes: string[] | null;
  display_prefix: string;
  last_used_at: string | null;
  revoked_at: string | null;
  scheduled_revoke_at: string | null;
  created_at: string;
}

/**
 * A rolled key whose grace has run out is shown revoked at its scheduled time: no event marks that
 * moment, but a client reading `revoked_at` must not think the key still works.
 */
export function toApiKeyObject(key: ApiKeyRecord, now: Date): ApiKeyObject {
  const revokedAt =
    key.revokedAt ?? (keyStatus(key, now) === 'revoked' ? key.scheduledRevokeAt : null);
  return {
    object: 'api_key',
    id: key.id,
    mode: key.mode as Mode,
    scopes: key.kind === 'restricted' ? [...key.scopes] : null,
    display_prefix: key.displayPrefix,
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    revoked_at: revokedAt?.toISOString() ?? null,
    scheduled_revoke_at: key.scheduledRevokeAt?.toISOString() ?? null,
    created_at: key.createdAt.toISOString(),
  };
}
