import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { BUS_CLIENT } from '@xaalis/config';
import {
  PAYMENTS_CREATE,
  PAYMENTS_GET,
  PAYMENTS_LIST,
  PAYMENTS_TEST_HELPER,
  PaymentReply,
  request,
  type BusRequester,
} from '@xaalis/contracts';
import { ApiErrors, ApiListResponse, asListResponse, Idempotent, NewIds } from '@xaalis/http';
import { ApiCaller, ApiKeyAuth, RequireScope } from '@xaalis/identity';
import { forbidden } from '@xaalis/kernel';
import { CreatePaymentDto } from './create-payment.dto';
import { ListPaymentsQuery } from './list-payments.query';
import { MerchantContext } from './merchant-context';

/** Spec 4.1 and CONTRACT 5: payments of the caller's merchant and mode. */
@ApiTags('payments')
@Controller('v1')
@ApiKeyAuth()
export class PaymentsController {
  constructor(
    @Inject(BUS_CLIENT) private readonly bus: BusRequester,
    private readonly merchants: MerchantContext,
  ) {}

  @ApiOperation({ summary: 'Create a payment' })
  @ApiErrors('aggregated_identity_required')
  @Post('payments')
  @RequireScope('payments', 'write')
  @Idempotent({ required: false })
  @ApiCreatedResponse({
    type: PaymentReply,
    description: 'The payment (spec 2.1); `next_action` ready when `provider` is given.',
  })
  async create(
    @ApiCaller() caller: ApiCaller,
    @Body() body: CreatePaymentDto,
    @NewIds() ids: NewIds,
  ) {
    const merchant = await this.merchants.of(caller.merchantId, caller.mode);
    return request(this.bus, PAYMENTS_CREATE, {
      merchant_id: caller.merchantId,
      mode: caller.mode,
      payment_id: ids.of('payment'),
      merchant_name: merchant.name,
      aggregated_merchant_id: merchant.aggregatedMerchantId,
      amount: body.amount,
      provider: body.provider,
      description: body.description,
      client_reference: body.client_reference,
      customer: body.customer,
      success_url: body.success_url,
      cancel_url: body.cancel_url,
      metadata: body.metadata,
    });
  }

  @ApiOperation({ summary: 'Retrieve a payment' })
  @Get('payments/:id')
  @RequireScope('payments', 'read')
  @ApiParam({ name: 'id' })
  @ApiOkResponse({ type: PaymentReply, description: 'The payment (spec 2.1).' })
  get(@ApiCaller() caller: ApiCaller, @Param('id') id: string) {
    return request(this.bus, PAYMENTS_GET, {
      merchant_id: caller.merchantId,
      mode: caller.mode,
      payment_id: id,
    });
  }

  @ApiOperation({ summary: 'List payments, newest first' })
  @Get('payments')
  @RequireScope('payments', 'read')
  @ApiListResponse(PaymentReply, 'Payments, newest first (CONTRACT 4); `status` filters.')
  async list(@ApiCaller() caller: ApiCaller, @Query() query: ListPaymentsQuery) {
    const page = await request(this.bus, PAYMENTS_LIST, {
      merchant_id: caller.merchantId,
      mode: caller.mode,
      limit: query.limit,
      starting_after: query.starting_after,
      status: query.status,
    });
    return asListResponse(page);
  }

  /** CONTRACT 6 test helpers: test keys only, exactly the effects of the real trigger. */
  @ApiOperation({ summary: 'Test helper: make a test payment succeed' })
  @ApiErrors('invalid_state')
  @Post('test_helpers/payments/:id/succeed')
  @Idempotent({ required: false })
  @HttpCode(200)
  @RequireScope('payments', 'write')
  @ApiParam({ name: 'id' })
  @ApiOkResponse({ type: PaymentReply, description: 'The payment, succeeded (test mode only).' })
  succeed(@ApiCaller() caller: ApiCaller, @Param('id') id: string) {
    return this.testHelper(caller, id, 'succeed');
  }

  @ApiOperation({ summary: 'Test helper: make a test payment fail' })
  @ApiErrors('invalid_state')
  @Post('test_helpers/payments/:id/fail')
  @Idempotent({ required: false })
  @HttpCode(200)
  @RequireScope('payments', 'write')
  @ApiParam({ name: 'id' })
  @ApiOkResponse({ type: PaymentReply, description: 'The payment, failed (test mode only).' })
  fail(@ApiCaller() caller: ApiCaller, @Param('id') id: string) {
    return this.testHelper(caller, id, 'fail');
  }

  @ApiOperation({ summary: 'Test helper: make a test payment expire' })
  @ApiErrors('invalid_state')
  @Post('test_helpers/payments/:id/expire')
  @Idempotent({ required: false })
  @HttpCode(200)
  @RequireScope('payments', 'write')
  @ApiParam({ name: 'id' })
  @ApiOkResponse({ type: PaymentReply, description: 'The payment, expired (test mode only).' })
  expire(@ApiCaller() caller: ApiCaller, @Param('id') id: string) {
    return this.testHelper(caller, id, 'expire');
  }

  private testHelper(caller: ApiCaller, id: string, action: 'succeed' | 'fail' | 'expire') {
    if (caller.mode !== 'test') throw forbidden('Test helpers work with test keys only.');
    return request(this.bus, PAYMENTS_TEST_HELPER, {
      merchant_id: caller.merchantId,
      mode: caller.mode,
      payment_id: id,
      action,
    });
  }
}
