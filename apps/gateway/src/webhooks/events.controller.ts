import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { BUS_CLIENT } from '@xaalis/config';
import {
  request,
  WEBHOOKS_EVENT_GET,
  WEBHOOKS_EVENT_LIST,
  type BusRequester,
} from '@xaalis/contracts';
import { ApiCaller, ApiKeyAuth, RequireScope } from '@xaalis/identity';
import { ListEventsQuery } from './list-events.query';

/** CONTRACT 5: events as delivered (spec 2.10), of the caller's merchant and mode. */
@ApiTags('events')
@Controller('v1/events')
@ApiKeyAuth()
export class EventsController {
  constructor(@Inject(BUS_CLIENT) private readonly bus: BusRequester) {}

  @ApiOperation({ summary: 'Retrieve an event' })
  @Get(':id')
  @RequireScope('events', 'read')
  @ApiParam({ name: 'id' })
  @ApiOkResponse({ description: 'The event (spec 2.10).' })
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
  @ApiOkResponse({ description: 'List of events, newest first (CONTRACT 4).' })
  async list(@ApiCaller() caller: ApiCaller, @Query() query: ListEventsQuery) {
    const page = await request(this.bus, WEBHOOKS_EVENT_LIST, {
      merchant_id: caller.merchantId,
      mode: caller.mode,
      limit: query.limit,
      starting_after: query.starting_after,
      type: query.type,
    });
    return { object: 'list', data: page.data, has_more: page.has_more };
  }
}
