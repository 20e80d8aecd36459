import { Controller, Logger } from '@nestjs/common';
import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import {
  PAYOUTS_LEDGER_HOLD,
  PAYOUTS_LEDGER_RELEASE,
  PAYOUTS_LEDGER_SETTLE,
  reply,
  topicOf,
  validateIntegrationEvent,
} from '@xaalis/contracts';
import { modeOf } from '@xaalis/kernel';
import { Ledger } from '@xaalis/ledger';
import { LEDGER_ACCOUNTS, type HoldRef } from '@xaalis/ledger-domain';

/**
 * The merchant balance ledger's side of payments: each succeeded payment credits `net` (once
 * per payment, by the ledger's transaction id, whatever the bus redelivers), and refunds hold,
 * settle or release their amount through request-reply so the caller learns at once when
 * `available` is short.
 */
@Controller()
export class LedgerHandler {
  private readonly logger = new Logger('Ledger');

  constructor(private readonly ledger: Ledger) {}

  @EventPattern(topicOf('payment.succeeded'))
  async paymentSucceeded(@Payload() payload: unknown): Promise<void> {
    const event = validateIntegrationEvent(payload, 'payment.succeeded');
    const payment = event.data.object;
    const posted = await this.ledger.creditPayment({
      paymentId: payment.id,
      merchantId: event.merchant_id,
      mode: modeOf(event.livemode),
      amount: payment.amount,
      fee: payment.fee,
    });
    if (!posted.posted) this.logger.debug(`payment ${payment.id} was credited already`);
  }

  @MessagePattern(PAYOUTS_LEDGER_HOLD)
  hold(@Payload() payload: unknown) {
    return reply(PAYOUTS_LEDGER_HOLD, payload, async (request) => {
      if (request.credit_first) {
        await this.ledger.creditPayment({
          paymentId: request.credit_first.id,
          merchantId: request.merchant_id,
          mode: request.mode,
          amount: request.credit_first.amount,
          fee: request.credit_first.fee,
        });
      }
      await this.ledger.hold({
        ref: request.ref as HoldRef,
        merchantId: request.merchant_id,
        mode: request.mode,
        amount: request.amount,
      });
      return { state: 'held' as const };
    });
  }

  @MessagePattern(PAYOUTS_LEDGER_SETTLE)
  settle(@Payload() payload: unknown) {
    return reply(PAYOUTS_LEDGER_SETTLE, payload, async (request) => {
      const ref = request.ref as HoldRef;
      const to = ref.startsWith('refund:')
        ? LEDGER_ACCOUNTS.customerRefunds
        : LEDGER_ACCOUNTS.payoutsSent;
      const ended = await this.ledger.settleHold({ ref, to });
      return { state: ended.outcome };
    });
  }

  @MessagePattern(PAYOUTS_LEDGER_RELEASE)
  release(@Payload() payload: unknown) {
    return reply(PAYOUTS_LEDGER_RELEASE, payload, async (request) => {
      const ended = await this.ledger.releaseHold({ ref: request.ref as HoldRef });
      return { state: ended.outcome };
    });
  }
}
