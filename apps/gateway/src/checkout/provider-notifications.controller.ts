import { Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '@xaalis/http';
import { BUS_CLIENT } from '@xaalis/config';
import { PAYMENTS_PROVIDER_NOTIFY, request, type BusRequester } from '@xaalis/contracts';
import type { RawBodyRequest } from '@xaalis/http';
import { validationError } from '@xaalis/kernel';
import { ProviderNotificationReceived } from './provider-notification.response';

/**
 * Where Wave's webhooks and Orange Money's merchant callbacks arrive. The gateway passes the raw
 * bytes and headers on; the payments app verifies the signature (Wave) or API key (Orange Money)
 * before anything changes, and a forged notification is a 401.
 */
@ApiTags('providers')
@Controller('providers')
export class ProviderNotificationsController {
  constructor(@Inject(BUS_CLIENT) private readonly bus: BusRequester) {}

  @ApiOperation({ summary: 'Wave webhook (verified by its signature)', security: [] })
  @ApiErrors('authentication_required')
  @Post('wave/webhook')
  @HttpCode(200)
  @ApiOkResponse({
    type: ProviderNotificationReceived,
    description: 'Verified, whether or not it changed a payment.',
  })
  wave(@Req() req: RawBodyRequest) {
    return this.forward('wave', req);
  }

  @ApiOperation({ summary: 'Orange Money callback (verified by its API key)', security: [] })
  @ApiErrors('authentication_required')
  @Post('orange-money/callback')
  @HttpCode(200)
  @ApiOkResponse({
    type: ProviderNotificationReceived,
    description: 'Verified, whether or not it changed a payment.',
  })
  orangeMoney(@Req() req: RawBodyRequest) {
    return this.forward('orange_money', req);
  }

  private async forward(
    provider: 'wave' | 'orange_money',
    req: RawBodyRequest,
  ): Promise<ProviderNotificationReceived> {
    if (req.rawBody === undefined) {
      throw validationError([{ field: '', issue: 'must be a JSON body' }]);
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string') headers[name] = value;
    }
    await request(this.bus, PAYMENTS_PROVIDER_NOTIFY, {
      provider,
      headers,
      raw_body: req.rawBody,
    });
    return { received: true };
  }
}
