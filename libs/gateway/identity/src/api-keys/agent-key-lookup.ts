import type { CachedKey } from './api-key-cache';

/**
 * Agent keys (`ak_…`) are issued by the agent-wallet context in a later issue. It provides this
 * lookup under `AGENT_KEY_LOOKUP`; until then every agent key is unknown (401).
 */
export const AGENT_KEY_LOOKUP = 'XAALIS_AGENT_KEY_LOOKUP';

export interface AgentKeyLookup {
  findBySecretHash(secretHash: string): Promise<(CachedKey & { kind: 'agent' }) | null>;
}
