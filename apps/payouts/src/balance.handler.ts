import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  PAYOUTS_BALANCE_GET,
  reply,
  type BalanceReply,
  type ReplyEnvelope,
} from '@xaalis/contracts';
import { BalanceReader } from '@xaalis/ledger';

/** Answers the gateway's `GET /v1/balance` over the bus. */
@Controller()
export class BalanceHandler {
  constructor(private readonly balances: BalanceReader) {}

  @MessagePattern(PAYOUTS_BALANCE_GET)
  get(@Payload() payload: unknown): Promise<ReplyEnvelope<BalanceReply>> {
    return reply(PAYOUTS_BALANCE_GET, payload, (request) =>
      this.balances.balance(request.merchant_id, request.mode),
    );
  }
}
