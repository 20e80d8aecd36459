import { Body, Controller, Get, Inject, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { BUS_CLIENT } from '@xaalis/config';
import {
  AgentWalletReply,
  PAYOUTS_WALLET_CREATE,
  PAYOUTS_WALLET_GET,
  PAYOUTS_WALLET_LIST,
  PAYOUTS_WALLET_UPDATE,
  request,
  type BusRequester,
} from '@xaalis/contracts';
import { ApiListResponse, asListResponse, Idempotent, ListQueryDto, NewIds } from '@xaalis/http';
import { ApiCaller, ApiKeyAuth, RequireScope } from '@xaalis/identity';
import { CreateAgentWalletDto, UpdateAgentWalletDto } from './agent-wallet.dto';
import { createWalletMessage, updateWalletMessage } from './agent-wallet.messages';

/** Spec 4.3 and CONTRACT 5: the agent wallets of the caller's merchant and mode. */
@ApiTags('agent wallets')
@Controller('v1/agent-wallets')
@ApiKeyAuth()
export class AgentWalletsController {
  constructor(@Inject(BUS_CLIENT) private readonly bus: BusRequester) {}

  @ApiOperation({ summary: 'Create an agent wallet' })
  @Post()
  @RequireScope('agent_wallets', 'write')
  @Idempotent({ required: true })
  @ApiCreatedResponse({
    type: AgentWalletReply,
    description: 'The wallet (spec 2.6), `active`, `policy_version` 1.',
  })
  create(
    @ApiCaller() caller: ApiCaller,
    @Body() body: CreateAgentWalletDto,
    @NewIds() ids: NewIds,
  ) {
    return request(
      this.bus,
      PAYOUTS_WALLET_CREATE,
      createWalletMessage(caller, ids.of('agentWallet'), body),
    );
  }

  @ApiOperation({ summary: 'Retrieve an agent wallet' })
  @Get(':id')
  @RequireScope('agent_wallets', 'read')
  @ApiParam({ name: 'id' })
  @ApiOkResponse({ type: AgentWalletReply, description: 'The wallet (spec 2.6).' })
  get(@ApiCaller() caller: ApiCaller, @Param('id') id: string) {
    return request(this.bus, PAYOUTS_WALLET_GET, {
      merchant_id: caller.merchantId,
      mode: caller.mode,
      agent_wallet_id: id,
    });
  }

  @ApiOperation({ summary: 'List agent wallets, newest first' })
  @Get()
  @RequireScope('agent_wallets', 'read')
  @ApiListResponse(AgentWalletReply, 'Agent wallets, newest first (CONTRACT 4).')
  async list(@ApiCaller() caller: ApiCaller, @Query() query: ListQueryDto) {
    const page = await request(this.bus, PAYOUTS_WALLET_LIST, {
      merchant_id: caller.merchantId,
      mode: caller.mode,
      limit: query.limit,
      starting_after: query.starting_after,
    });
    return asListResponse(page);
  }

  @ApiOperation({ summary: "Change an agent wallet's policy" })
  @Patch(':id')
  @RequireScope('agent_wallets', 'write')
  @Idempotent({ required: true })
  @ApiParam({ name: 'id' })
  @ApiOkResponse({
    type: AgentWalletReply,
    description: 'The wallet, `policy_version` one higher when anything changed.',
  })
  update(
    @ApiCaller() caller: ApiCaller,
    @Param('id') id: string,
    @Body() body: UpdateAgentWalletDto,
  ) {
    return request(this.bus, PAYOUTS_WALLET_UPDATE, updateWalletMessage(caller, id, body));
  }
}
