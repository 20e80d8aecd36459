import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { BUS_CLIENT } from '@xaalis/config';
import {
  CustomerPaymentReply,
  PAYMENTS_PUBLIC_GET,
  PAYMENTS_PUBLIC_PAY,
  request,
  type BusRequester,
} from '@xaalis/contracts';
import { ApiErrors, OPENAPI_CLIENT_SECRET, RateLimit } from '@xaalis/http';
import { notFound } from '@xaalis/kernel';
import { ClientSecretQuery, PublicPayDto } from './public-pay.dto';

/**
 * The customer side of a payment (spec 4.1, 5): no bearer key, the client secret `cs` authorizes.
 * A wrong `cs` and an unknown payment are the same 404. Rate limited per IP.
 */
@ApiTags('customer')
@Controller('v1/public/payments')
@RateLimit('ip')
export class PublicPaymentsController {
  constructor(@Inject(BUS_CLIENT) private readonly bus: BusRequester) {}

  @ApiOperation({ summary: 'Customer: pay with Wave or Orange Money' })
  @ApiErrors('invalid_state', 'aggregated_identity_required')
  @ApiSecurity(OPENAPI_CLIENT_SECRET)
  @Post(':id/pay')
  @HttpCode(200)
  @ApiParam({ name: 'id' })
  @ApiOkResponse({
    type: CustomerPaymentReply,
    description: 'The customer-facing payment view (spec 2.2) with `next_action`.',
  })
  pay(@Param('id') id: string, @Query() query: ClientSecretQuery, @Body() body: PublicPayDto) {
    return request(this.bus, PAYMENTS_PUBLIC_PAY, {
      payment_id: id,
      client_secret: secretOf(query),
      provider: body.provider,
      phone: body.phone,
    });
  }

  /** What the hosted page polls while the provider confirms. */
  @ApiOperation({ summary: 'Customer: the payment as the customer sees it' })
  @ApiSecurity(OPENAPI_CLIENT_SECRET)
  @Get(':id')
  @ApiParam({ name: 'id' })
  @ApiOkResponse({
    type: CustomerPaymentReply,
    description: 'The customer-facing payment view (spec 2.2).',
  })
  get(@Param('id') id: string, @Query() query: ClientSecretQuery) {
    return request(this.bus, PAYMENTS_PUBLIC_GET, {
      payment_id: id,
      client_secret: secretOf(query),
    });
  }
}

const secretOf = (query: ClientSecretQuery): string => {
  if (!query.cs) throw notFound('payment');
  return query.cs;
};
