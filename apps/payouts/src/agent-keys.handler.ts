import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  PAYOUTS_AGENT_KEY_FIND,
  reply,
  type AgentKeyFindReply,
  type ReplyEnvelope,
} from '@xaalis/contracts';
import { AgentKeyStore } from '@xaalis/payouts-application';

/** Answers the gateway's bearer guard about an `ak_…` secret, by its keyed hash, over the bus. */
@Controller()
export class AgentKeysHandler {
  constructor(private readonly keys: AgentKeyStore) {}

  @MessagePattern(PAYOUTS_AGENT_KEY_FIND)
  find(@Payload() payload: unknown): Promise<ReplyEnvelope<AgentKeyFindReply>> {
    return reply(PAYOUTS_AGENT_KEY_FIND, payload, async (request) => ({
      key: await this.keys.findActiveBySecretHash(request.secret_hash),
    }));
  }
}
