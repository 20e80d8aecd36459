import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { BUS_CLIENT } from '@xaalis/config';
import {
  ANY_WEBHOOK_EVENT,
  request,
  WEBHOOK_EVENT_SCHEMAS,
  WEBHOOKS_EVENT_GET,
  WEBHOOKS_EVENT_LIST,
  type BusRequester,
} from '@xaalis/contracts';
import { ApiListResponse, asListResponse } from '@xaalis/http';
import { ApiCaller, ApiKeyAuth, RequireScope } from '@xaalis/identity';
import { ListEventsQuery } from './list-events.query';

/**
 * CONTRACT 5: events as delivered (spec 2.10), of the caller's merchant and mode. Their schemas,
 * one per event type, are also what merchants' webhook receivers get: the document lists them
 * in `components.schemas` through this controller.
 */
@ApiTags('events')
@Controller('v1/events')
@ApiKeyAuth()
@ApiExtraModels(...WEBHOOK_EVENT_SCHEMAS)
export class EventsController {
  constructor(@Inject(BUS_CLIENT) private readonly bus: BusRequester) {}

  @ApiOperation({ summary: 'Retrieve an event' })
  @Get(':id')
  @RequireScope('events', 'read')
  @ApiParam({ name: 'id' })
  @ApiOkResponse({ schema: ANY_WEBHOOK_EVENT, description: 'The event, as it was delivered.' })
  get(@ApiCaller() caller: ApiCaller, @Param('id') id: string) {
    return request(this.bus, WEBHOOKS_EVENT_GET, {
      merchant_id: caller.merchantId,
      mode: caller.mode,
      event_id: id,
    });
  }

  @ApiOperation({ summary: 'List events, newest first' })
  @Get()
  @RequireScope('events', 'read')
  @ApiListResponse(ANY_WEBHOOK_EVENT, 'Events as delivered, newest first (CONTRACT 4).')
  async list(@ApiCaller() caller: ApiCaller, @Query() query: ListEventsQuery) {
    const page = await request(this.bus, WEBHOOKS_EVENT_LIST, {
      merchant_id: caller.merchantId,
      mode: caller.mode,
      limit: query.limit,
      starting_after: query.starting_after,
      type: query.type,
    });
    return asListResponse(page);
  }
}
