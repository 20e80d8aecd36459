import { Controller, Delete, Get, Inject, Param, Post } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { BUS_CLIENT, CONFIG, type XaalisConfig } from '@xaalis/config';
import {
  AgentKeyObjectReply,
  PAYOUTS_AGENT_KEY_ISSUE,
  PAYOUTS_AGENT_KEY_LIST,
  PAYOUTS_AGENT_KEY_REVOKE,
  request,
  type BusRequester,
} from '@xaalis/contracts';
import { ApiListResponse, asListResponse, Idempotent, NewIds } from '@xaalis/http';
import {
  ApiCaller,
  ApiKeyAuth,
  ApiKeyAuthenticator,
  newApiKeySecret,
  RequireScope,
} from '@xaalis/identity';
import { IdempotentSecretIssuance } from '../common/secret-once';
import { IssuedAgentKeyResponse } from './issued-agent-key.response';

/**
 * CONTRACT 5: the agent keys of one wallet. The payouts app owns them; the gateway makes each
 * secret, shows it once, and hands over only its keyed hash.
 */
@ApiTags('agent wallets')
@Controller('v1/agent-wallets/:id/keys')
@ApiKeyAuth()
@ApiParam({ name: 'id', description: 'The agent wallet' })
export class AgentKeysController {
  private readonly hashKey: string;

  constructor(
    @Inject(BUS_CLIENT) private readonly bus: BusRequester,
    @Inject(CONFIG) config: XaalisConfig,
    private readonly authenticator: ApiKeyAuthenticator,
  ) {
    if (!config.secretHashKey) throw new Error('config.secretHashKey is required to issue keys');
    this.hashKey = config.secretHashKey;
  }

  /**
   * A retry of the key after a run that died (CONTRACT 3, docs/ARCHITECTURE.md) has the same
   * `key_id` and a new secret: the first one was never shown.
   */
  @ApiOperation({ summary: 'Issue an agent key (shown once)' })
  @Post()
  @RequireScope('agent_wallets', 'write')
  @IdempotentSecretIssuance()
  @ApiCreatedResponse({
    type: IssuedAgentKeyResponse,
    description: 'The key bound to this wallet; `secret_key` is shown this once.',
  })
  async issue(@ApiCaller() caller: ApiCaller, @Param('id') id: string, @NewIds() ids: NewIds) {
    const { secret, secretHash } = newApiKeySecret('agent', caller.mode, this.hashKey);
    const key = await request(this.bus, PAYOUTS_AGENT_KEY_ISSUE, {
      merchant_id: caller.merchantId,
      mode: caller.mode,
      agent_wallet_id: id,
      key_id: ids.of('agentKey'),
      secret_hash: secretHash,
    });
    return { ...key, secret_key: secret };
  }

  @ApiOperation({ summary: "List a wallet's agent keys (never their secrets)" })
  @Get()
  @RequireScope('agent_wallets', 'read')
  @ApiListResponse(AgentKeyObjectReply, "The wallet's agent keys, newest first; never a secret.")
  async list(@ApiCaller() caller: ApiCaller, @Param('id') id: string) {
    const page = await request(this.bus, PAYOUTS_AGENT_KEY_LIST, {
      merchant_id: caller.merchantId,
      mode: caller.mode,
      agent_wallet_id: id,
    });
    return asListResponse(page);
  }

  @ApiOperation({ summary: 'Revoke an agent key at once' })
  @Delete(':keyId')
  @RequireScope('agent_wallets', 'write')
  @Idempotent({ required: false })
  @ApiParam({ name: 'keyId' })
  @ApiOkResponse({ type: AgentKeyObjectReply, description: 'The key, `revoked_at` set.' })
  async revoke(
    @ApiCaller() caller: ApiCaller,
    @Param('id') id: string,
    @Param('keyId') keyId: string,
  ) {
    const key = await request(this.bus, PAYOUTS_AGENT_KEY_REVOKE, {
      merchant_id: caller.merchantId,
      mode: caller.mode,
      agent_wallet_id: id,
      key_id: keyId,
    });
    // Refused here from this answer on; other replicas hear of it from the payouts app's NOTIFY,
    // which may reach this one after the client has its answer and calls again.
    this.authenticator.forget(key.id);
    return key;
  }
}
