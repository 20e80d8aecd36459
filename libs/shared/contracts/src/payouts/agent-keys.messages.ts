import { Type } from 'class-transformer';
import { IsIn, IsObject, Matches, ValidateIf, ValidateNested } from 'class-validator';
import { MODES, type Mode } from '@xaalis/kernel';
import { idPattern } from '../shared/formats';

/**
 * `payouts.agent_key.find`: the gateway's bearer guard asks the payouts app for the agent key
 * (`ak_test_…` / `ak_live_…`) whose secret has this keyed hash. A request, not a shared table: in
 * distributed mode the gateway and the payouts app are separate processes, and the agent keys are
 * payouts' read model. The gateway caches the answer (`ApiKeyCache`) and forgets it on the key's
 * `xaalis_api_key_changed` notification, so a revoke must announce the key's id.
 */
export const PAYOUTS_AGENT_KEY_FIND = 'payouts.agent_key.find';

/** HMAC-SHA256 of the secret under SECRET_HASH_KEY, as `hashSecret` writes it. */
const SECRET_HASH = /^[0-9a-f]{64}$/;

export class AgentKeyFindRequest {
  @Matches(SECRET_HASH, { message: 'secret_hash must be a keyed hash (64 hex digits)' })
  secret_hash!: string;
}

/** What the bearer guard needs of an agent key that is not revoked. */
export class AgentKeyReply {
  @Matches(idPattern('agk'), { message: 'id must be an agent key id (agk_…)' })
  id!: string;

  @Matches(idPattern('mer'), { message: 'merchant_id must be a merchant id (mer_…)' })
  merchant_id!: string;

  @IsIn(MODES)
  mode!: Mode;

  @Matches(idPattern('aw'), { message: 'agent_wallet_id must be an agent wallet id (aw_…)' })
  agent_wallet_id!: string;

  /** The stored hash, which the gateway compares again in constant time. */
  @Matches(SECRET_HASH, { message: 'secret_hash must be a keyed hash (64 hex digits)' })
  secret_hash!: string;
}

/** `key` is null for a hash no key has, and for a revoked key: both are the same 401. */
export class AgentKeyFindReply {
  @ValidateIf((reply: AgentKeyFindReply) => reply.key !== null)
  @IsObject()
  @ValidateNested()
  @Type(() => AgentKeyReply)
  key!: AgentKeyReply | null;
}
