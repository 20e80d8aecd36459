import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { BUS_CLIENT } from '@xaalis/config';
import { type BusRequester, PAYOUTS_BALANCE_GET, request } from '@xaalis/contracts';
import { ApiCaller, ApiKeyAuth, RequireScope } from '@xaalis/identity';
import { livemode } from '@xaalis/kernel';
import { BalanceResponse } from './balance.response';

/** The balance lives in the payouts ledger; the gateway asks for it over the bus. */
@ApiTags('balance')
@Controller('v1/balance')
@ApiKeyAuth()
export class BalanceController {
  constructor(@Inject(BUS_CLIENT) private readonly bus: BusRequester) {}

  @ApiOperation({ summary: 'The balance: available and pending' })
  @Get()
  @RequireScope('balance', 'read')
  @ApiOkResponse({ type: BalanceResponse, description: "The balance in the key's mode." })
  async get(@ApiCaller() caller: ApiCaller): Promise<BalanceResponse> {
    const balance = await request(this.bus, PAYOUTS_BALANCE_GET, {
      merchant_id: caller.merchantId,
      mode: caller.mode,
    });
    return {
      object: 'balance',
      livemode: livemode(caller.mode),
      currency: 'XOF',
      available: balance.available,
      pending: balance.pending,
    };
  }
}
