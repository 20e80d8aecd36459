import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  PAYMENTS_CREATE,
  PAYMENTS_GET,
  PAYMENTS_LIST,
  PAYMENTS_PROVIDER_NOTIFY,
  PAYMENTS_PUBLIC_GET,
  PAYMENTS_PUBLIC_PAY,
  PAYMENTS_REFUND_CREATE,
  PAYMENTS_REFUND_GET,
  PAYMENTS_REFUND_LIST,
  PAYMENTS_SANDBOX_ACT,
  PAYMENTS_SANDBOX_GET,
  PAYMENTS_TEST_HELPER,
  reply,
} from '@xaalis/contracts';
import {
  CustomerPaymentsService,
  PaymentsService,
  ProviderOutcomes,
  RefundsService,
} from '@xaalis/payments-application';

/** The payments app's request-reply patterns; each payload is validated by `reply`. */
@Controller()
export class PaymentsHandler {
  constructor(
    private readonly payments: PaymentsService,
    private readonly customers: CustomerPaymentsService,
    private readonly providers: ProviderOutcomes,
    private readonly refunds: RefundsService,
  ) {}

  @MessagePattern(PAYMENTS_CREATE)
  create(@Payload() payload: unknown) {
    return reply(PAYMENTS_CREATE, payload, (request) => this.payments.create(request));
  }

  @MessagePattern(PAYMENTS_GET)
  get(@Payload() payload: unknown) {
    return reply(PAYMENTS_GET, payload, (request) => this.payments.get(request));
  }

  @MessagePattern(PAYMENTS_LIST)
  list(@Payload() payload: unknown) {
    return reply(PAYMENTS_LIST, payload, (request) => this.payments.list(request));
  }

  @MessagePattern(PAYMENTS_TEST_HELPER)
  testHelper(@Payload() payload: unknown) {
    return reply(PAYMENTS_TEST_HELPER, payload, (request) => this.payments.testHelper(request));
  }

  @MessagePattern(PAYMENTS_PUBLIC_GET)
  publicGet(@Payload() payload: unknown) {
    return reply(PAYMENTS_PUBLIC_GET, payload, (request) => this.customers.publicGet(request));
  }

  @MessagePattern(PAYMENTS_PUBLIC_PAY)
  pay(@Payload() payload: unknown) {
    return reply(PAYMENTS_PUBLIC_PAY, payload, (request) => this.customers.pay(request));
  }

  @MessagePattern(PAYMENTS_SANDBOX_GET)
  sandboxPage(@Payload() payload: unknown) {
    return reply(PAYMENTS_SANDBOX_GET, payload, (request) => this.customers.sandboxPage(request));
  }

  @MessagePattern(PAYMENTS_SANDBOX_ACT)
  sandboxAct(@Payload() payload: unknown) {
    return reply(PAYMENTS_SANDBOX_ACT, payload, (request) => this.customers.sandboxAct(request));
  }

  @MessagePattern(PAYMENTS_PROVIDER_NOTIFY)
  notify(@Payload() payload: unknown) {
    return reply(PAYMENTS_PROVIDER_NOTIFY, payload, (request) => this.providers.notify(request));
  }

  @MessagePattern(PAYMENTS_REFUND_CREATE)
  refund(@Payload() payload: unknown) {
    return reply(PAYMENTS_REFUND_CREATE, payload, (request) => this.refunds.create(request));
  }

  @MessagePattern(PAYMENTS_REFUND_GET)
  getRefund(@Payload() payload: unknown) {
    return reply(PAYMENTS_REFUND_GET, payload, (request) => this.refunds.get(request));
  }

  @MessagePattern(PAYMENTS_REFUND_LIST)
  listRefunds(@Payload() payload: unknown) {
    return reply(PAYMENTS_REFUND_LIST, payload, (request) => this.refunds.list(request));
  }
}
