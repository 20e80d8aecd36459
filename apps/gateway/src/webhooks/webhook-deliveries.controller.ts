import { Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { BUS_CLIENT } from '@xaalis/config';
import {
  request,
  WebhookDeliveryReply,
  WEBHOOKS_DELIVERY_LIST,
  WEBHOOKS_DELIVERY_RETRY,
  type BusRequester,
} from '@xaalis/contracts';
import { ApiListResponse, asListResponse, Idempotent, ListQueryDto } from '@xaalis/http';
import { ApiCaller, ApiKeyAuth, RequireScope } from '@xaalis/identity';

/** A retry waits for the receiver (up to 10 s, spec 6) before it answers. */
const RETRY_TIMEOUT_MS = 15_000;

/** Spec 4.6 and CONTRACT 5: deliveries of the caller's merchant and mode. */
@ApiTags('webhooks')
@Controller('v1/webhook-deliveries')
@ApiKeyAuth()
export class WebhookDeliveriesController {
  constructor(@Inject(BUS_CLIENT) private readonly bus: BusRequester) {}

  @ApiOperation({ summary: 'List webhook deliveries, newest first' })
  @Get()
  @RequireScope('webhooks', 'read')
  @ApiListResponse(WebhookDeliveryReply, 'Webhook deliveries, newest first (CONTRACT 4).')
  async list(@ApiCaller() caller: ApiCaller, @Query() query: ListQueryDto) {
    const page = await request(this.bus, WEBHOOKS_DELIVERY_LIST, {
      merchant_id: caller.merchantId,
      mode: caller.mode,
      limit: query.limit,
      starting_after: query.starting_after,
    });
    return asListResponse(page);
  }

  @ApiOperation({ summary: 'Retry a webhook delivery now' })
  @Post(':id/retry')
  @Idempotent({ required: false })
  @HttpCode(200)
  @RequireScope('webhooks', 'write')
  @ApiParam({ name: 'id' })
  @ApiOkResponse({
    type: WebhookDeliveryReply,
    description: 'The delivery after the attempt made now.',
  })
  retry(@ApiCaller() caller: ApiCaller, @Param('id') id: string) {
    return request(
      this.bus,
      WEBHOOKS_DELIVERY_RETRY,
      { merchant_id: caller.merchantId, mode: caller.mode, delivery_id: id },
      { timeoutMs: RETRY_TIMEOUT_MS },
    );
  }
}
