import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { PAYOUTS_PAYOUT_CREATE, reply } from '@xaalis/contracts';
import { DirectPayoutsService } from '@xaalis/payouts-application';

/**
 * Payouts other contexts make for their own account, without an agent wallet (the exchange's);
 * `reply` validates each request. Reads and test helpers are the agent wallets' handler's.
 */
@Controller()
export class PayoutsHandler {
  constructor(private readonly payouts: DirectPayoutsService) {}

  @MessagePattern(PAYOUTS_PAYOUT_CREATE)
  create(@Payload() payload: unknown) {
    return reply(PAYOUTS_PAYOUT_CREATE, payload, (request) => this.payouts.create(request));
  }
}
