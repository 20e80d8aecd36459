import { Body, Controller, Headers, HttpCode, Inject, Param, Post } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { BUS_CLIENT } from '@xaalis/config';
import {
  BILLING_SUBSCRIPTION_CREATE,
  BILLING_SUBSCRIPTION_TEST_ADVANCE,
  SubscriptionReply,
  request,
  type BusRequester,
} from '@xaalis/contracts';
import { ApiErrors, IDEMPOTENCY_KEY_HEADER, Idempotent, NewIds } from '@xaalis/http';
import { MerchantModeCaller, Roles, SessionAuth } from '@xaalis/identity';
import { forbidden } from '@xaalis/kernel';
import { MerchantContext } from '../payments/merchant-context';
import { CreateSubscriptionDto } from './create-subscription.dto';
import { createSubscriptionMessage, testAdvanceMessage } from './subscription.messages';

/** Spec 4.2 and 5 rule 2: a merchant's subscriptions of one mode, owner or developer. */
@ApiTags('dashboard: subscriptions')
@Controller('dashboard/v1/merchants/:merchantId/:mode/subscriptions')
@SessionAuth()
@ApiParam({ name: 'merchantId' })
@ApiParam({ name: 'mode', enum: ['test', 'live'] })
export class DashboardSubscriptionsController {
  constructor(
    @Inject(BUS_CLIENT) private readonly bus: BusRequester,
    private readonly merchants: MerchantContext,
  ) {}

  /** The merchant's name goes with the command, as a payment's does: billing shows it on invoices. */
  @ApiOperation({ summary: 'Create a subscription' })
  @Post()
  @Roles('owner', 'developer')
  @Idempotent({ required: true })
  @ApiCreatedResponse({
    type: SubscriptionReply,
    description: 'The subscription (spec 2.3), `active`, with its first invoice `open`.',
  })
  async create(
    @MerchantModeCaller() caller: MerchantModeCaller,
    @Body() body: CreateSubscriptionDto,
    @NewIds() ids: NewIds,
  ) {
    const merchant = await this.merchants.of(caller.merchantId, caller.mode);
    return request(
      this.bus,
      BILLING_SUBSCRIPTION_CREATE,
      createSubscriptionMessage(caller, ids.of('subscription'), merchant.name, body),
    );
  }

  /** Spec 4.2: the `{mode}` segment takes `live`, but only test billing can be advanced. */
  @ApiOperation({ summary: 'Move a test subscription to its next billing event' })
  @ApiErrors('invalid_state')
  @Post(':id/test_advance')
  @Roles('owner', 'developer')
  @Idempotent({ required: true })
  @HttpCode(200)
  @ApiParam({ name: 'id' })
  @ApiOkResponse({
    type: SubscriptionReply,
    description: 'The subscription after its next billing event (test mode only).',
  })
  testAdvance(
    @MerchantModeCaller() caller: MerchantModeCaller,
    @Param('id') id: string,
    // Already checked by `@Idempotent` (present, once, 1 to 255 printable characters).
    @Headers(IDEMPOTENCY_KEY_HEADER) idempotencyKey: string,
  ) {
    if (caller.mode !== 'test') throw forbidden('Only test subscriptions can be advanced.');
    return request(
      this.bus,
      BILLING_SUBSCRIPTION_TEST_ADVANCE,
      testAdvanceMessage(caller, id, idempotencyKey),
    );
  }
}
