import { Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { BUS_CLIENT } from '@xaalis/config';
import {
  PAYOUTS_PAYOUT_GET,
  PAYOUTS_PAYOUT_LIST,
  PAYOUTS_TEST_HELPER,
  PayoutReply,
  request,
  type BusRequester,
} from '@xaalis/contracts';
import { ApiErrors, ApiListResponse, asListResponse, Idempotent } from '@xaalis/http';
import { ApiCaller, ApiKeyAuth, RequireScope } from '@xaalis/identity';
import { forbidden } from '@xaalis/kernel';
import { ListWalletPayoutsQuery } from './list-wallet-payouts.query';

/** Spec 4.3 and CONTRACT 6: payouts of the caller's merchant and mode, and their test helpers. */
@ApiTags('payouts')
@Controller('v1')
@ApiKeyAuth()
export class PayoutsController {
  constructor(@Inject(BUS_CLIENT) private readonly bus: BusRequester) {}

  @ApiOperation({ summary: 'Retrieve a payout' })
  @Get('payouts/:id')
  @RequireScope('payouts', 'read')
  @ApiParam({ name: 'id' })
  @ApiOkResponse({ type: PayoutReply, description: 'The payout (spec 2.5).' })
  get(@ApiCaller() caller: ApiCaller, @Param('id') id: string) {
    return request(this.bus, PAYOUTS_PAYOUT_GET, {
      merchant_id: caller.merchantId,
      mode: caller.mode,
      payout_id: id,
    });
  }

  @ApiOperation({ summary: "List a wallet's payouts, newest first" })
  @Get('agent-wallets/:id/payouts')
  @RequireScope('payouts', 'read')
  @ApiParam({ name: 'id', description: 'The agent wallet' })
  @ApiListResponse(
    PayoutReply,
    "The wallet's payouts, newest first (CONTRACT 4); `client_reference` filters.",
  )
  async list(
    @ApiCaller() caller: ApiCaller,
    @Param('id') id: string,
    @Query() query: ListWalletPayoutsQuery,
  ) {
    const page = await request(this.bus, PAYOUTS_PAYOUT_LIST, {
      merchant_id: caller.merchantId,
      mode: caller.mode,
      agent_wallet_id: id,
      limit: query.limit,
      starting_after: query.starting_after,
      client_reference: query.client_reference,
    });
    return asListResponse(page);
  }

  /** CONTRACT 6 test helpers: test keys only, exactly the effects of the real trigger. */
  @ApiOperation({ summary: 'Test helper: make a test payout succeed' })
  @ApiErrors('invalid_state')
  @Post('test_helpers/payouts/:id/succeed')
  @Idempotent({ required: false })
  @HttpCode(200)
  @RequireScope('payouts', 'write')
  @ApiParam({ name: 'id' })
  @ApiOkResponse({ type: PayoutReply, description: 'The payout, succeeded (test mode only).' })
  succeed(@ApiCaller() caller: ApiCaller, @Param('id') id: string) {
    return this.testHelper(caller, id, 'succeed');
  }

  @ApiOperation({ summary: 'Test helper: make a test payout fail' })
  @ApiErrors('invalid_state')
  @Post('test_helpers/payouts/:id/fail')
  @Idempotent({ required: false })
  @HttpCode(200)
  @RequireScope('payouts', 'write')
  @ApiParam({ name: 'id' })
  @ApiOkResponse({ type: PayoutReply, description: 'The payout, failed (test mode only).' })
  fail(@ApiCaller() caller: ApiCaller, @Param('id') id: string) {
    return this.testHelper(caller, id, 'fail');
  }

  private testHelper(caller: ApiCaller, id: string, action: 'succeed' | 'fail') {
    if (caller.mode !== 'test') throw forbidden('Test helpers work with test keys only.');
    return request(this.bus, PAYOUTS_TEST_HELPER, {
      merchant_id: caller.merchantId,
      mode: caller.mode,
      payout_id: id,
      action,
    });
  }
}
