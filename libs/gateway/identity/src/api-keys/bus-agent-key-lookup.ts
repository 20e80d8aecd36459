import { Inject, Injectable } from '@nestjs/common';
import { BUS_CLIENT } from '@xaalis/config';
import { PAYOUTS_AGENT_KEY_FIND, request, type BusRequester } from '@xaalis/contracts';
import type { AgentKeyLookup, AgentKey } from './agent-key-lookup';

/**
 * Asks the payouts app, which owns agent keys, over the bus: in process in embedded mode, over
 * Kafka in distributed mode, where the gateway cannot reach payouts' memory. Only misses of the
 * key cache get here. A payouts app that does not answer is `unavailable` (503), never a 401
 * that a client would take for a revoked key.
 */
@Injectable()
export class BusAgentKeyLookup implements AgentKeyLookup {
  constructor(@Inject(BUS_CLIENT) private readonly bus: BusRequester) {}

  async findBySecretHash(secretHash: string): Promise<AgentKey | null> {
    const { key } = await request(this.bus, PAYOUTS_AGENT_KEY_FIND, { secret_hash: secretHash });
    if (key === null) return null;
    return {
      keyId: key.id,
      merchantId: key.merchant_id,
      mode: key.mode,
      kind: 'agent',
      scopes: [],
      secretHash: key.secret_hash,
      // Payouts answers only keys that are not revoked; agent keys have no rolling grace.
      revokedAt: null,
      scheduledRevokeAt: null,
      agentWalletId: key.agent_wallet_id,
    };
  }
}
