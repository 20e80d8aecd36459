import type { CachedKey } from './api-key-cache';

/**
 * Where the bearer guard finds agent keys (`ak_…`), which the payouts app owns (its `agent_keys`
 * read model). The gateway provides `BusAgentKeyLookup` here, a `payouts.agent_key.find` request,
 * so it works alike in one process and across processes. Whatever writes `agent_keys` (the
 * agent-wallet projection) must call `announceApiKeyChanged` (`@xaalis/database`) with the key's
 * id in the transaction that revokes it, as the merchant projection does for API keys, so the
 * cached key stops working on every gateway replica at once rather than at the cache's TTL.
 */
export const AGENT_KEY_LOOKUP = 'XAALIS_AGENT_KEY_LOOKUP';

export type AgentKey = CachedKey & { kind: 'agent'; agentWalletId: string };

export interface AgentKeyLookup {
  /** The key that is not revoked and whose secret has this keyed hash; null for none. */
  findBySecretHash(secretHash: string): Promise<AgentKey | null>;
}
