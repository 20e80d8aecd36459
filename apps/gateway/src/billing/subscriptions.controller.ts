import {
  Body,
  Controller,
  Get,
  Headers,
  HttpCode,
  Inject,
  Param,
  Post,
  Query,
} from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { BUS_CLIENT } from '@xaalis/config';
import {
  BILLING_SUBSCRIPTION_CANCEL,
  BILLING_SUBSCRIPTION_GET,
  BILLING_SUBSCRIPTION_LIST,
  BILLING_SUBSCRIPTION_TEST_ADVANCE,
  CanceledSubscriptionReply,
  SubscriptionReply,
  request,
  type BusRequester,
} from '@xaalis/contracts';
import {
  ApiErrors,
  ApiListResponse,
  asListResponse,
  IDEMPOTENCY_KEY_HEADER,
  Idempotent,
} from '@xaalis/http';
import { ApiCaller, ApiKeyAuth, RequireScope } from '@xaalis/identity';
import { forbidden } from '@xaalis/kernel';
import { CancelSubscriptionDto } from './cancel-subscription.dto';
import { ListSubscriptionsQuery } from './list-subscriptions.query';
import { cancelSubscriptionMessage, testAdvanceMessage } from './subscription.messages';

/**
 * Spec 4.2 and CONTRACT 5: the subscriptions of the caller's merchant and mode. They are created
 * from the dashboard only (spec 4.2), so there is no `POST /v1/subscriptions`.
 */
@ApiTags('subscriptions')
@Controller('v1/subscriptions')
@ApiKeyAuth()
export class SubscriptionsController {
  constructor(@Inject(BUS_CLIENT) private readonly bus: BusRequester) {}

  @ApiOperation({ summary: 'Retrieve a subscription' })
  @Get(':id')
  @RequireScope('subscriptions', 'read')
  @ApiParam({ name: 'id' })
  @ApiOkResponse({
    type: SubscriptionReply,
    description: 'The subscription (spec 2.3), its latest invoice embedded.',
  })
  get(@ApiCaller() caller: ApiCaller, @Param('id') id: string) {
    return request(this.bus, BILLING_SUBSCRIPTION_GET, {
      merchant_id: caller.merchantId,
      mode: caller.mode,
      subscription_id: id,
    });
  }

  @ApiOperation({ summary: 'List subscriptions, newest first' })
  @Get()
  @RequireScope('subscriptions', 'read')
  @ApiListResponse(SubscriptionReply, 'Subscriptions, newest first (CONTRACT 4); `status` filters.')
  async list(@ApiCaller() caller: ApiCaller, @Query() query: ListSubscriptionsQuery) {
    const page = await request(this.bus, BILLING_SUBSCRIPTION_LIST, {
      merchant_id: caller.merchantId,
      mode: caller.mode,
      limit: query.limit,
      starting_after: query.starting_after,
      status: query.status,
    });
    return asListResponse(page);
  }

  @ApiOperation({ summary: 'Cancel a subscription, now or at the end of its period' })
  @ApiErrors('invalid_state')
  @Post(':id/cancel')
  @RequireScope('subscriptions', 'write')
  @Idempotent({ required: true })
  @HttpCode(200)
  @ApiParam({ name: 'id' })
  @ApiOkResponse({
    type: CanceledSubscriptionReply,
    description:
      'The subscription; `pending_payment` names the provider payment still in flight, if any, which may settle after cancellation.',
  })
  cancel(
    @ApiCaller() caller: ApiCaller,
    @Param('id') id: string,
    @Body() body: CancelSubscriptionDto,
  ) {
    return request(
      this.bus,
      BILLING_SUBSCRIPTION_CANCEL,
      cancelSubscriptionMessage(caller, id, body),
    );
  }

  /**
   * Spec 5 rule 1 and CONTRACT 7: test keys only, like the CONTRACT 6 test helpers. The key is
   * required and names the advance: the same key never advances the subscription twice.
   */
  @ApiOperation({ summary: 'Test helper: move a test subscription to its next billing event' })
  @ApiErrors('invalid_state')
  @Post(':id/test_advance')
  @RequireScope('subscriptions', 'write')
  @Idempotent({ required: true })
  @HttpCode(200)
  @ApiParam({ name: 'id' })
  @ApiOkResponse({
    type: SubscriptionReply,
    description: 'The subscription after its next billing event (test mode only).',
  })
  testAdvance(
    @ApiCaller() caller: ApiCaller,
    @Param('id') id: string,
    // Already checked by `@Idempotent` (present, once, 1 to 255 printable characters).
    @Headers(IDEMPOTENCY_KEY_HEADER) idempotencyKey: string,
  ) {
    if (caller.mode !== 'test') throw forbidden('Test helpers work with test keys only.');
    return request(
      this.bus,
      BILLING_SUBSCRIPTION_TEST_ADVANCE,
      testAdvanceMessage(caller, id, idempotencyKey),
    );
  }
}
