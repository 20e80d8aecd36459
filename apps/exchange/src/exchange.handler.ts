import { Controller } from '@nestjs/common';
import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import {
  EXCHANGE_CREATE,
  EXCHANGE_PUBLIC_GET,
  EXCHANGE_QUOTE_CREATE,
  reply,
  topicOf,
  validateIntegrationEvent,
} from '@xaalis/contracts';
import { ExchangeProgress, ExchangesService, QuotesService } from '@xaalis/exchange-application';

/** The public exchange's request-reply patterns; `reply` validates each. */
@Controller()
export class ExchangeHandler {
  constructor(
    private readonly quotes: QuotesService,
    private readonly exchanges: ExchangesService,
  ) {}

  @MessagePattern(EXCHANGE_QUOTE_CREATE)
  createQuote(@Payload() payload: unknown) {
    return reply(EXCHANGE_QUOTE_CREATE, payload, (request) => this.quotes.create(request));
  }

  @MessagePattern(EXCHANGE_CREATE)
  create(@Payload() payload: unknown) {
    return reply(EXCHANGE_CREATE, payload, (request) => this.exchanges.create(request));
  }

  @MessagePattern(EXCHANGE_PUBLIC_GET)
  publicGet(@Payload() payload: unknown) {
    return reply(EXCHANGE_PUBLIC_GET, payload, (request) => this.exchanges.publicGet(request));
  }
}

/** How the customer's payment and the payout to the phone ended, applied to their exchange. */
@Controller()
export class ExchangeProgressHandler {
  constructor(private readonly progress: ExchangeProgress) {}

  @EventPattern(topicOf('payment.succeeded'))
  async paymentSucceeded(@Payload() payload: unknown): Promise<void> {
    const event = validateIntegrationEvent(payload, 'payment.succeeded');
    await this.progress.payment('succeeded', event.merchant_id, event.data.object);
  }

  @EventPattern(topicOf('payment.failed'))
  async paymentFailed(@Payload() payload: unknown): Promise<void> {
    const event = validateIntegrationEvent(payload, 'payment.failed');
    await this.progress.payment('failed', event.merchant_id, event.data.object);
  }

  @EventPattern(topicOf('payment.expired'))
  async paymentExpired(@Payload() payload: unknown): Promise<void> {
    const event = validateIntegrationEvent(payload, 'payment.expired');
    await this.progress.payment('expired', event.merchant_id, event.data.object);
  }

  @EventPattern(topicOf('payment.refunded'))
  async paymentRefunded(@Payload() payload: unknown): Promise<void> {
    const event = validateIntegrationEvent(payload, 'payment.refunded');
    await this.progress.payment('refunded', event.merchant_id, event.data.object);
  }

  @EventPattern(topicOf('payout.succeeded'))
  async payoutSucceeded(@Payload() payload: unknown): Promise<void> {
    const event = validateIntegrationEvent(payload, 'payout.succeeded');
    await this.progress.payout('succeeded', event.merchant_id, event.data.object);
  }

  @EventPattern(topicOf('payout.failed'))
  async payoutFailed(@Payload() payload: unknown): Promise<void> {
    const event = validateIntegrationEvent(payload, 'payout.failed');
    await this.progress.payout('failed', event.merchant_id, event.data.object);
  }
}
