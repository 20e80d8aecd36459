/**
 * Small Nest apps for the bus tests (unit and int): `payouts` answers `payouts.balance.get` and
 * follows payments, `webhooks` follows payments and payouts, `billing` follows invoices only.
 * Each writes what it receives into its Inbox. Test code only.
 */
import {
  Controller,
  Inject,
  Module,
  type DynamicModule,
  type INestMicroservice,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import {
  IntegrationEvent,
  PAYOUTS_BALANCE_GET,
  reply,
  topicOf,
  validateMessage,
  type AppName,
  type BalanceReply,
  type BalanceRequest,
} from '@xaalis/contracts';
import { bareEventObject } from '@xaalis/contracts/testing';
import { notFound } from '@xaalis/kernel';
import { busServerStrategy, type BusOptions } from '../bus-client';

export class Inbox {
  readonly events: IntegrationEvent[] = [];
  readonly requests: BalanceRequest[] = [];
  readonly balances = new Map<string, BalanceReply>();
  /** Deliveries to refuse (throw) before accepting again. */
  failNext = 0;
  /** Balance requests to fail with a bug (a TypeError, not a refusal). */
  crashNext = 0;
  /** Every delivery, refused ones included. */
  deliveries = 0;

  receive(payload: unknown): void {
    this.deliveries++;
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error('refused by the test');
    }
    this.events.push(validateMessage(IntegrationEvent, payload));
  }

  /** Resolves once `count` events are in, or rejects after `timeoutMs`. */
  async waitForEvents(count: number, timeoutMs = 10_000): Promise<IntegrationEvent[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.events.length < count) {
      if (Date.now() > deadline) {
        throw new Error(
          `Expected ${count} events within ${timeoutMs} ms, got ${this.events.length}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return this.events;
  }
}

@Controller()
class PayoutsHandlers {
  constructor(@Inject(Inbox) private readonly inbox: Inbox) {}

  @MessagePattern(PAYOUTS_BALANCE_GET)
  balance(@Payload() payload: unknown) {
    return reply(PAYOUTS_BALANCE_GET, payload, (request) => {
      this.inbox.requests.push(request);
      if (this.inbox.crashNext > 0) {
        this.inbox.crashNext--;
        throw new TypeError('a bug in the owner');
      }
      const balance = this.inbox.balances.get(`${request.merchant_id}/${request.mode}`);
      if (balance === undefined) throw notFound('merchant');
      return balance;
    });
  }

  @EventPattern(topicOf('payment.succeeded'))
  paymentSucceeded(@Payload() payload: unknown): void {
    this.inbox.receive(payload);
  }
}

@Controller()
class WebhooksHandlers {
  constructor(@Inject(Inbox) private readonly inbox: Inbox) {}

  @EventPattern(topicOf('payment.succeeded'))
  async paymentSucceeded(@Payload() payload: unknown): Promise<void> {
    this.inbox.receive(payload);
  }

  @EventPattern(topicOf('payout.failed'))
  async payoutFailed(@Payload() payload: unknown): Promise<void> {
    this.inbox.receive(payload);
  }
}

@Controller()
class BillingHandlers {
  constructor(@Inject(Inbox) private readonly inbox: Inbox) {}

  @EventPattern(topicOf('invoice.paid'))
  invoicePaid(@Payload() payload: unknown): void {
    this.inbox.receive(payload);
  }
}

@Module({})
class FixtureModule {}

const HANDLERS = { payouts: PayoutsHandlers, webhooks: WebhooksHandlers, billing: BillingHandlers };
export type FixtureApp = keyof typeof HANDLERS;

function fixtureModule(app: FixtureApp, inbox: Inbox): DynamicModule {
  return {
    module: FixtureModule,
    controllers: [HANDLERS[app]],
    providers: [{ provide: Inbox, useValue: inbox }],
  };
}

/** Starts the fixture app on the bus; `listen` resolves once it is subscribed. */
export async function startFixtureApp(
  app: FixtureApp & AppName,
  inbox: Inbox,
  options: BusOptions,
  logger: false | ['error'] = ['error'],
): Promise<INestMicroservice> {
  const microservice = await NestFactory.createMicroservice(fixtureModule(app, inbox), {
    ...busServerStrategy(app, options),
    logger,
  });
  await microservice.listen();
  return microservice;
}

/** A valid integration event, overridable field by field. */
export function newIntegrationEvent(overrides: Partial<IntegrationEvent> = {}): IntegrationEvent {
  return {
    id: 'evt_01JF0000000000000000000000',
    type: 'payment.succeeded',
    merchant_id: 'mer_01JF0000000000000000000000',
    livemode: false,
    created_at: '2026-11-22T10:00:00.000Z',
    source: { stream: 'payment-pay_01JF0000000000000000000000', revision: 2 },
    data: {
      object: bareEventObject({
        object: 'payment',
        id: 'pay_01JF0000000000000000000000',
        amount: 5000,
      }),
    },
    ...overrides,
  };
}
