import { Body, Controller, Get, Inject, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { BUS_CLIENT, CONFIG, type XaalisConfig } from '@xaalis/config';
import {
  request,
  WebhookEndpointReply,
  WEBHOOKS_ENDPOINT_CREATE,
  WEBHOOKS_ENDPOINT_LIST,
  WEBHOOKS_ENDPOINT_UPDATE,
  type BusRequester,
} from '@xaalis/contracts';
import {
  ApiErrors,
  ApiListResponse,
  asListResponse,
  Idempotent,
  ListQueryDto,
  NewIds,
} from '@xaalis/http';
import { MerchantModeCaller, Roles, SessionAuth } from '@xaalis/identity';
import { assertPublicWebhookTarget } from '@xaalis/net-guard';
import { CreateWebhookEndpointDto, UpdateWebhookEndpointDto } from './webhook-endpoint.dto';

/** Spec 4.4 and CONTRACT 5: a merchant's webhook endpoints of one mode. */
@ApiTags('dashboard: webhook endpoints')
@Controller('dashboard/v1/merchants/:merchantId/:mode/webhook-endpoints')
@SessionAuth()
@ApiParam({ name: 'merchantId' })
@ApiParam({ name: 'mode', enum: ['test', 'live'] })
export class WebhookEndpointsController {
  constructor(
    @Inject(BUS_CLIENT) private readonly bus: BusRequester,
    @Inject(CONFIG) private readonly config: XaalisConfig,
  ) {}

  @ApiOperation({ summary: 'Create a webhook endpoint' })
  @ApiErrors('invalid_state')
  @Post()
  @Roles('owner')
  @Idempotent({ required: true })
  @ApiCreatedResponse({ type: WebhookEndpointReply, description: 'The webhook endpoint.' })
  async create(
    @MerchantModeCaller() caller: MerchantModeCaller,
    @Body() body: CreateWebhookEndpointDto,
    @NewIds() ids: NewIds,
  ) {
    await assertPublicWebhookTarget(body.url, this.config.webhookAllowedHosts, undefined, 'url');
    return request(this.bus, WEBHOOKS_ENDPOINT_CREATE, {
      merchant_id: caller.merchantId,
      mode: caller.mode,
      endpoint_id: ids.of('webhookEndpoint'),
      url: body.url,
      event_types: body.event_types,
    });
  }

  @ApiOperation({ summary: 'List webhook endpoints' })
  @Get()
  @Roles('owner', 'developer')
  @ApiListResponse(WebhookEndpointReply, 'Webhook endpoints, newest first (CONTRACT 4).')
  async list(@MerchantModeCaller() caller: MerchantModeCaller, @Query() query: ListQueryDto) {
    const page = await request(this.bus, WEBHOOKS_ENDPOINT_LIST, {
      merchant_id: caller.merchantId,
      mode: caller.mode,
      limit: query.limit,
      starting_after: query.starting_after,
    });
    return asListResponse(page);
  }

  @ApiOperation({ summary: 'Update a webhook endpoint' })
  @Patch(':id')
  @Idempotent({ required: false })
  @Roles('owner')
  @ApiParam({ name: 'id' })
  @ApiOkResponse({ type: WebhookEndpointReply, description: 'The webhook endpoint, changed.' })
  update(
    @MerchantModeCaller() caller: MerchantModeCaller,
    @Param('id') id: string,
    @Body() body: UpdateWebhookEndpointDto,
  ) {
    return request(this.bus, WEBHOOKS_ENDPOINT_UPDATE, {
      merchant_id: caller.merchantId,
      mode: caller.mode,
      endpoint_id: id,
      event_types: body.event_types,
      active: body.active,
    });
  }
}
