import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, CONFIG, PRISMA, type XaalisConfig } from '@xaalis/config';
import type { PrismaClient } from '@xaalis/database';
import {
  type Clock,
  constantTimeEqual,
  DomainError,
  hashSecret,
  secretFingerprint,
} from '@xaalis/kernel';
import { keyStatus } from '@xaalis/identity-domain';
import { AGENT_KEY_LOOKUP, type AgentKeyLookup } from './agent-key-lookup';
import { ApiKeyCache, type CachedKey } from './api-key-cache';
import { parseBearerSecret } from './api-key-secret';
import { ApiKeyUsageRecorder } from './api-key-usage.recorder';

/**
 * One body for every failure (missing, malformed, unknown, revoked, grace over): a caller learns
 * nothing about which keys exist.
 */
export const invalidApiKey = () =>
  new DomainError(
    'authentication_required',
    'A valid API key is required: Authorization: Bearer <key>.',
  );

/** Turns a bearer secret into the key it names, or refuses it. */
@Injectable()
export class ApiKeyAuthenticator {
  private readonly hashKey: string;

  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    @Inject(CONFIG) config: XaalisConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly cache: ApiKeyCache,
    private readonly usage: ApiKeyUsageRecorder,
    @Inject(AGENT_KEY_LOOKUP) private readonly agentKeys: AgentKeyLookup,
  ) {
    if (!config.secretHashKey)
      throw new Error('config.secretHashKey is required to check API keys');
    this.hashKey = config.secretHashKey;
  }

  async authenticate(secret: string | undefined): Promise<CachedKey> {
    const parsed = secret === undefined ? null : parseBearerSecret(secret);
    if (!parsed || secret === undefined) throw invalidApiKey();
    const now = this.clock.now();
    const key = await this.lookup(secret, parsed.type === 'agent', now.getTime());
    if (!key || key.mode !== parsed.mode) throw invalidApiKey();
    if (keyStatus(key, now) === 'revoked') throw invalidApiKey();
    await this.usage.record(key.keyId, now);
    return key;
  }

  /**
   * Called after a revoke or roll in this process, so the change is immediate here without waiting
   * for the notification that evicts it in every process.
   */
  forget(keyId: string): void {
    this.cache.invalidate(keyId);
  }

  /**
   * The cache is keyed by the secret's fingerprint (a plain SHA-256), not by its keyed hash: a hit
   * means this very secret was checked against the stored hash when the entry was made, and the
   * HMAC (measured: about a tenth of a payment read's CPU) is computed only on a miss. The secret
   * itself is never kept.
   */
  private async lookup(secret: string, agent: boolean, nowMs: number): Promise<CachedKey | null> {
    const fingerprint = secretFingerprint(secret);
    const cached = this.cache.get(fingerprint, nowMs);
    if (cached !== undefined) return cached;
    const readAt = this.cache.generation;
    const secretHash = hashSecret(secret, this.hashKey);
    const found = agent
      ? await this.agentKeys.findBySecretHash(secretHash)
      : await this.findApiKey(secretHash);
    // The index found the row by hash; comparing again in constant time keeps the decision itself
    // free of early exits.
    const key = found !== null && constantTimeEqual(found.secretHash, secretHash) ? found : null;
    this.cache.set(fingerprint, key, nowMs, readAt);
    return key;
  }

  private async findApiKey(secretHash: string): Promise<CachedKey | null> {
    const row = await this.prisma.apiKey.findUnique({ where: { secretHash } });
    if (!row) return null;
    return {
      keyId: row.id,
      merchantId: row.merchantId,
      mode: row.mode,
      kind: row.kind === 'restricted' ? 'restricted' : 'secret',
      scopes: row.scopes,
      secretHash: row.secretHash,
      revokedAt: row.revokedAt,
      scheduledRevokeAt: row.scheduledRevokeAt,
    };
  }
}
