import { Body, Controller, Inject, Param, Patch, Post } from '@nestjs/common';
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
  PAYOUTS_WALLET_UPDATE,
  request,
  type BusRequester,
} from '@xaalis/contracts';
import { Idempotent, NewIds } from '@xaalis/http';
import { MerchantModeCaller, Roles, SessionAuth } from '@xaalis/identity';
import { CreateAgentWalletDto, UpdateAgentWalletDto } from './agent-wallet.dto';
import { createWalletMessage, updateWalletMessage } from './agent-wallet.messages';

/** Spec 4.3 and 5 rule 2, CONTRACT 5: a merchant's agent wallets of one mode, owner only. */
@ApiTags('dashboard: agent wallets')
@Controller('dashboard/v1/merchants/:merchantId/:mode/agent-wallets')
@SessionAuth()
@ApiParam({ name: 'merchantId' })
@ApiParam({ name: 'mode', enum: ['test', 'live'] })
export class DashboardAgentWalletsController {
  constructor(@Inject(BUS_CLIENT) private readonly bus: BusRequester) {}

  @ApiOperation({ summary: 'Create an agent wallet' })
  @Post()
  @Roles('owner')
  @Idempotent({ required: true })
  @ApiCreatedResponse({
    type: AgentWalletReply,
    description: 'The wallet (spec 2.6), `active`, `policy_version` 1.',
  })
  create(
    @MerchantModeCaller() caller: MerchantModeCaller,
    @Body() body: CreateAgentWalletDto,
    @NewIds() ids: NewIds,
  ) {
    return request(
      this.bus,
      PAYOUTS_WALLET_CREATE,
      createWalletMessage(caller, ids.of('agentWallet'), body),
    );
  }

  // The key is optional, as on the other dashboard PATCH (webhook endpoints): the spec asks for it
  // on creation only. A client that sends one gets CONTRACT 3's replay.
  @ApiOperation({ summary: "Change an agent wallet's policy" })
  @Patch(':id')
  @Roles('owner')
  @Idempotent({ required: false })
  @ApiParam({ name: 'id' })
  @ApiOkResponse({
    type: AgentWalletReply,
    description: 'The wallet, `policy_version` one higher when anything changed.',
  })
  update(
    @MerchantModeCaller() caller: MerchantModeCaller,
    @Param('id') id: string,
    @Body() body: UpdateAgentWalletDto,
  ) {
    return request(this.bus, PAYOUTS_WALLET_UPDATE, updateWalletMessage(caller, id, body));
  }
}
