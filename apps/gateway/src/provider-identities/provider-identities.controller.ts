import { Body, Controller, HttpCode, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Idempotent } from '@xaalis/http';
import { IdentityCommands, MerchantCaller, PathMode, Roles, SessionAuth } from '@xaalis/identity';
import { ProviderIdentityResponse } from './provider-identity.response';
import { WaveIdentityDto } from './wave-identity.dto';

/** CONTRACT 5: with it, live `wave` payments are allowed in aggregator mode. */
@ApiTags('dashboard: provider identities')
@Controller('dashboard/v1/merchants/:merchantId/live/provider-identities')
@SessionAuth()
@ApiParam({ name: 'merchantId' })
export class ProviderIdentitiesController {
  constructor(private readonly commands: IdentityCommands) {}

  @ApiOperation({ summary: 'Set the live Wave identity of a merchant' })
  @Put('wave')
  @HttpCode(200)
  @Roles('owner')
  @PathMode('live')
  @Idempotent({ required: false })
  @ApiOkResponse({ type: ProviderIdentityResponse, description: 'The provider identity.' })
  async setWave(
    @MerchantCaller() caller: MerchantCaller,
    @Body() body: WaveIdentityDto,
  ): Promise<ProviderIdentityResponse> {
    await this.commands.setWaveIdentity(caller.merchantId, body.aggregated_merchant_id);
    return {
      object: 'provider_identity',
      merchant_id: caller.merchantId,
      provider: 'wave',
      livemode: true,
      aggregated_merchant_id: body.aggregated_merchant_id,
    };
  }
}
