/** What the bearer guard needs to know about a key, cached by the secret's fingerprint. */
export interface CachedKey {
  keyId: string;
  merchantId: string;
  mode: string;
  kind: 'secret' | 'restricted' | 'agent';
  scopes: string[];
  secretHash: string;
  revokedAt: Date | null;
  scheduledRevokeAt: Date | null;
  /** Agent keys only. */
  agentWalletId?: string;
}

interface Entry {
  key: CachedKey | null;
  expiresAtMs: number;
}

/**
 * Saves a database round trip per request. A change to a key evicts it in every process at once
 * (`ApiKeyChangeListener`); the TTL is only the backstop for a notification lost with a
 * connection. Unknown secrets are cached too, so a flood of made-up keys costs one query per key
 * per TTL. Bounded, oldest first out.
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, Entry>();
  /** Raised by every eviction, so a lookup that read the row before it cannot put it back. */
  private evictions = 0;

  constructor(
    private readonly ttlMs = 5_000,
    private readonly maxEntries = 10_000,
  ) {}

  /** undefined: not cached (or expired); null: cached as unknown. */
  get(fingerprint: string, nowMs: number): CachedKey | null | undefined {
    const entry = this.entries.get(fingerprint);
    if (!entry) return undefined;
    if (entry.expiresAtMs <= nowMs) {
      this.entries.delete(fingerprint);
      return undefined;
    }
    return entry.key;
  }

  /** Taken before a lookup reads the database, and given back to `set`. */
  get generation(): number {
    return this.evictions;
  }

  /** Skipped when something was evicted since `readAt`: what was read may be what was evicted. */
  set(fingerprint: string, key: CachedKey | null, nowMs: number, readAt = this.evictions): void {
    if (readAt !== this.evictions) return;
    this.entries.delete(fingerprint);
    this.entries.set(fingerprint, { key, expiresAtMs: nowMs + this.ttlMs });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  invalidate(keyId: string): void {
    this.evictions += 1;
    for (const [fingerprint, entry] of this.entries) {
      if (entry.key?.keyId === keyId) this.entries.delete(fingerprint);
    }
  }

  clear(): void {
    this.evictions += 1;
    this.entries.clear();
  }
}
