import type { PrismaTx } from './prisma';

/** The NOTIFY channel a changed key (revoked, rolled, given a new secret) is announced on. */
export const API_KEY_CHANGED_CHANNEL = 'xaalis_api_key_changed';

/**
 * Every gateway replica's key cache listens (`ApiKeyChangeListener`) and forgets the key. Here, in
 * the shared library, so the owner of each kind of key can announce it: the merchant projection
 * (API keys, gateway) and the agent-wallet projection (agent keys, payouts).
 *
 * Sent from the projection's transaction, so it goes out exactly when the row that changed is
 * committed, from whichever process applied the event (the command's or a background runner).
 * Inside the transaction, unlike the event store's append NOTIFY: key changes are rare, so the
 * lock a notifying commit holds costs nothing measurable, and no crash can come between the
 * change and its announcement.
 */
export async function announceApiKeyChanged(tx: PrismaTx, keyId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_notify(${API_KEY_CHANGED_CHANNEL}, ${keyId})`;
}
