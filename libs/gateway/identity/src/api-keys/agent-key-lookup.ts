import type { CachedKey } from './api-key-cache';

/**
 * Agent keys (`ak_…`) are issued by the agent-wallet context in a later issue. It provides this
 * lookup under `AGENT_KEY_LOOKUP`; until then every agent key is unknown (401). Its revoke must
 * call `announceApiKeyChanged` with the key's id in the revoking transaction, as the merchant
 * projection does, so the cached key stops working on every replica at once.
 */
export const AGENT_KEY_LOOKUP = 'XAALIS_AGENT_KEY_LOOKUP';

export interface AgentKeyLookup {
  findBySecretHash(secretHash: string): Promise<(CachedKey & { kind: 'agent' }) | null>;
}
