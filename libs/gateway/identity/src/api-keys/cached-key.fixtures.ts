import type { CachedKey } from './api-key-cache';

/** An active secret key as the bearer guard sees it. */
export const cachedKey = (keyId: string, overrides: Partial<CachedKey> = {}): CachedKey => ({
  keyId,
  merchantId: 'mer_1',
  mode: 'test',
  kind: 'secret',
  scopes: [],
  secretHash: `hash-${keyId}`,
  revokedAt: null,
  scheduledRevokeAt: null,
  ...overrides,
});
