import { ApiProperty } from '@nestjs/swagger';
import { type Mode, MODES } from '@xaalis/kernel';
import { ALL_SCOPES, keyStatus } from '@xaalis/identity-domain';

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

/** Spec 2.7, as every key route shows a key. */
export class ApiKeyObject {
  @ApiProperty({ enum: ['api_key'] })
  object!: 'api_key';

  @ApiProperty({ example: 'key_01JD8ZP5V6W7X8Y9Z0A1B2C3D4' })
  id!: string;

  @ApiProperty({ enum: MODES })
  mode!: Mode;

  @ApiProperty({
    type: [String],
    enum: ALL_SCOPES,
    nullable: true,
    description: "A restricted key's scopes; null for a secret key",
  })
  scopes!: string[] | null;

  @ApiProperty({ example: 'sk_test_h0Ag…NssZ' })
  display_prefix!: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  last_used_at!: string | null;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: "Set once the key stops working, by a revoke or at the end of a roll's grace",
  })
  revoked_at!: string | null;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'When a rolled key stops working',
  })
  scheduled_revoke_at!: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;
}

/** A key as the issuing calls return it. `secret_key` is added then, never from a stored row. */
export class IssuedApiKey extends ApiKeyObject {
  /**
   * Always made by the issuing command; the HTTP answer keeps it out of the idempotency store, so
   * a replay of the request shows the key without it (apps/gateway/src/common/secret-once.ts).
   */
  @ApiProperty({
    required: false,
    example: 'sk_test_h0Agj8AUxyk3x1GRniG88rvhkmdvNssZ',
    description: 'Shown this once: absent from a replay of the request, never retrievable',
  })
  secret_key!: string;
}

/** A roll's answer (spec 4.4): the new key, and the old one with its revocation scheduled. */
export class RolledApiKey extends IssuedApiKey {
  /** The rolled key, without its secret. No description: it would wrap the `$ref` in an `allOf`. */
  @ApiProperty({ type: ApiKeyObject })
  previous_key!: ApiKeyObject;
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
