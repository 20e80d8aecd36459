import { Inject, Injectable } from '@nestjs/common';
import { PRISMA } from '@xaalis/config';
import type { AgentKeyReply } from '@xaalis/contracts';
import type { PrismaClient } from '@xaalis/database';
import type { Mode } from '@xaalis/kernel';

/**
 * Reads the `agent_keys` read model for the gateway's bearer guard. A revoked key is answered
 * like an unknown one: the guard refuses both alike, and a revoked key has no grace to honour.
 */
@Injectable()
export class AgentKeyStore {
  constructor(@Inject(PRISMA) private readonly prisma: PrismaClient) {}

  async findActiveBySecretHash(secretHash: string): Promise<AgentKeyReply | null> {
    const row = await this.prisma.agentKey.findUnique({ where: { secretHash } });
    if (row === null || row.revokedAt !== null) return null;
    return {
      id: row.id,
      merchant_id: row.merchantId,
      mode: row.mode as Mode,
      agent_wallet_id: row.agentWalletId,
      secret_hash: row.secretHash,
    };
  }
}
