import { Body, Controller, Inject, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiTags } from '@nestjs/swagger';
import { BUS_CLIENT } from '@xaalis/config';
import { PAYMENTS_REFUND_CREATE, request, type BusRequester } from '@xaalis/contracts';
import { Idempotent, NewIds } from '@xaalis/http';
import { ApiCaller, ApiKeyAuth, RequireScope } from '@xaalis/identity';
import { CreateRefundDto } from './create-refund.dto';

/** CONTRACT 5: refunds of succeeded payments; the idempotency key is required. */
@ApiTags('refunds')
@Controller('v1/refunds')
@ApiKeyAuth()
export class RefundsController {
  constructor(@Inject(BUS_CLIENT) private readonly bus: BusRequester) {}

  @Post()
  @RequireScope('refunds', 'write')
  @Idempotent({ required: true })
  @ApiCreatedResponse({
    description:
      '`{object: "refund", id, payment, amount, status, created_at}`; 402 `insufficient_funds` when `available` is short.',
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
}
