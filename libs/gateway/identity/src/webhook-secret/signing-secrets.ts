/** A merchant's webhook secrets as the read model keeps them, encrypted. */
export interface StoredWebhookSecrets {
  current: string;
  /** The secret the last roll replaced, with the end of its overlap; null without one. */
  previous: { encrypted: string; expiresAt: Date } | null;
}

/**
 * The secrets that sign a delivery at `now`, newest first: the previous one only while its overlap
 * runs. The expiry is a fact and the clock decides, as for a rolled API key's grace, so no event
 * has to mark the moment it stops.
 */
export function signingSecrets(stored: StoredWebhookSecrets, now: Date): string[] {
  const previous = stored.previous;
  return previous !== null && now.getTime() < previous.expiresAt.getTime()
    ? [stored.current, previous.encrypted]
    : [stored.current];
}
