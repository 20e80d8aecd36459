import { Body, Controller, Get, Inject, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { BUS_CLIENT } from '@xaalis/config';
import {
  AgentWalletSpendingReply,
  PAYOUTS_AGENT_PAYOUT_CREATE,
  PAYOUTS_AGENT_WALLET_GET,
  PayoutReply,
  request,
  type BusRequester,
} from '@xaalis/contracts';
import { ApiErrors, Idempotent, NewIds } from '@xaalis/http';
import { ApiKeyAuth } from '@xaalis/identity';
import { AgentCaller } from './agent-caller';
import { CreateAgentPayoutDto } from './create-agent-payout.dto';

/**
 * Spec 4.3 and 5: what an agent key may do, on its own wallet only. The bearer guard lets agent
 * keys reach these routes and nothing else, and no other key reach them; the wallet is the key's.
 */
@ApiTags('agent')
@Controller('v1/agent')
@ApiKeyAuth()
export class AgentController {
  constructor(@Inject(BUS_CLIENT) private readonly bus: BusRequester) {}

  @ApiOperation({ summary: "Read this agent key's wallet policy and today's spending" })
  @Get('wallet')
  @ApiOkResponse({
    type: AgentWalletSpendingReply,
    description: 'The wallet (spec 2.6) with `spent_today` and `remaining_today` (Dakar day).',
  })
  wallet(@AgentCaller() caller: AgentCaller) {
    return request(this.bus, PAYOUTS_AGENT_WALLET_GET, {
      merchant_id: caller.merchantId,
      mode: caller.mode,
      agent_wallet_id: caller.agentWalletId,
    });
  }

  @ApiOperation({ summary: "Pay out within the wallet's policy" })
  @ApiErrors('insufficient_funds', 'policy_violation', 'invalid_state')
  @Post('payouts')
  @Idempotent({ required: true })
  @ApiCreatedResponse({
    type: PayoutReply,
    description:
      'The payout (spec 2.5), `pending`; the same `action_id` again answers the original. ' +
      '402 `policy_violation` (`details.rule`: `recipient_not_allowed`, `max_payout_amount`, ' +
      '`max_daily_amount`, `wallet_disabled`) or `insufficient_funds` (amount + fee over `available`). ' +
      'A retry of a request interrupted before its acceptance, whose funds were given back, is ' +
      'made under a new payout id. 409 `invalid_state` only when that retry raced the release of ' +
      'those funds: send it again with a new idempotency key and the same `action_id`.',
  })
  createPayout(
    @AgentCaller() caller: AgentCaller,
    @Body() body: CreateAgentPayoutDto,
    @NewIds() ids: NewIds,
  ) {
    return request(this.bus, PAYOUTS_AGENT_PAYOUT_CREATE, {
      merchant_id: caller.merchantId,
      mode: caller.mode,
      agent_wallet_id: caller.agentWalletId,
      agent_key_id: caller.agentKeyId,
      payout_id: ids.of('payout'),
      action_id: body.action_id,
      amount: body.amount,
      currency: body.currency,
      recipient: { phone: body.recipient.phone, name: body.recipient.name },
    });
  }
}
