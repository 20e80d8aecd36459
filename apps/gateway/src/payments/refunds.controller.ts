import { Body, Controller, Get, Inject, Param, Post, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { BUS_CLIENT } from '@xaalis/config';
import {
  PAYMENTS_REFUND_CREATE,
  PAYMENTS_REFUND_GET,
  PAYMENTS_REFUND_LIST,
  RefundReply,
  request,
  type BusRequester,
} from '@xaalis/contracts';
import { ApiErrors, ApiListResponse, asListResponse, Idempotent, NewIds } from '@xaalis/http';
import { ApiCaller, ApiKeyAuth, RequireScope } from '@xaalis/identity';
import { CreateRefundDto } from './create-refund.dto';
import { ListRefundsQuery } from './list-refunds.query';

/**
 * CONTRACT 5: refunds of succeeded payments (the idempotency key is required), and refunds as
 * resources: one by its id, and the list, newest first, of all or of one payment.
 */
@ApiTags('refunds')
@Controller('v1/refunds')
@ApiKeyAuth()
export class RefundsController {
  constructor(@Inject(BUS_CLIENT) private readonly bus: BusRequester) {}

  @ApiOperation({ summary: 'Refund a succeeded payment, in full or in part' })
  @ApiErrors('insufficient_funds', 'invalid_state', 'not_found')
  @Post()
  @RequireScope('refunds', 'write')
  @Idempotent({ required: true })
  @ApiCreatedResponse({
    type: RefundReply,
    description:
      'The refund, `pending` until it reaches the customer; 402 when `available` is short.',
  })
  create(@ApiCaller() caller: ApiCaller, @Body() body: CreateRefundDto, @NewIds() ids: NewIds) {
    return request(this.bus, PAYMENTS_REFUND_CREATE, {
      merchant_id: caller.merchantId,
      mode: caller.mode,
      refund_id: ids.of('refund'),
      payment_id: body.payment,
      amount: body.amount,
    });
  }

  @ApiOperation({ summary: 'Retrieve a refund' })
  @Get(':id')
  @RequireScope('refunds', 'read')
  @ApiParam({ name: 'id' })
  @ApiOkResponse({
    type: RefundReply,
    description: 'The refund (404 for another merchant or mode).',
  })
  get(@ApiCaller() caller: ApiCaller, @Param('id') id: string) {
    return request(this.bus, PAYMENTS_REFUND_GET, {
      merchant_id: caller.merchantId,
      mode: caller.mode,
      refund_id: id,
    });
  }

  @ApiOperation({ summary: 'List refunds, newest first' })
  @Get()
  @RequireScope('refunds', 'read')
  @ApiListResponse(RefundReply, 'Refunds, newest first (CONTRACT 4); `payment` filters.')
  async list(@ApiCaller() caller: ApiCaller, @Query() query: ListRefundsQuery) {
    const page = await request(this.bus, PAYMENTS_REFUND_LIST, {
      merchant_id: caller.merchantId,
      mode: caller.mode,
      limit: query.limit,
      starting_after: query.starting_after,
      payment: query.payment,
    });
    return asListResponse(page);
  }
}
