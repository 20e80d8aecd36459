import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  PAYOUTS_AGENT_KEY_ISSUE,
  PAYOUTS_AGENT_KEY_LIST,
  PAYOUTS_AGENT_KEY_REVOKE,
  PAYOUTS_AGENT_PAYOUT_CREATE,
  PAYOUTS_AGENT_WALLET_GET,
  PAYOUTS_PAYOUT_GET,
  PAYOUTS_PAYOUT_LIST,
  PAYOUTS_TEST_HELPER,
  PAYOUTS_WALLET_CREATE,
  PAYOUTS_WALLET_GET,
  PAYOUTS_WALLET_LIST,
  PAYOUTS_WALLET_UPDATE,
  reply,
} from '@xaalis/contracts';
import {
  AgentPayoutsService,
  AgentWalletsService,
  PayoutsService,
} from '@xaalis/payouts-application';

/** Agent wallets', agent keys' and payouts' request-reply patterns; `reply` validates each. */
@Controller()
export class AgentWalletsHandler {
  constructor(
    private readonly wallets: AgentWalletsService,
    private readonly agentPayouts: AgentPayoutsService,
    private readonly payouts: PayoutsService,
  ) {}

  @MessagePattern(PAYOUTS_WALLET_CREATE)
  create(@Payload() payload: unknown) {
    return reply(PAYOUTS_WALLET_CREATE, payload, (request) => this.wallets.create(request));
  }

  @MessagePattern(PAYOUTS_WALLET_GET)
  get(@Payload() payload: unknown) {
    return reply(PAYOUTS_WALLET_GET, payload, (request) => this.wallets.get(request));
  }

  @MessagePattern(PAYOUTS_WALLET_LIST)
  list(@Payload() payload: unknown) {
    return reply(PAYOUTS_WALLET_LIST, payload, (request) => this.wallets.list(request));
  }

  @MessagePattern(PAYOUTS_WALLET_UPDATE)
  update(@Payload() payload: unknown) {
    return reply(PAYOUTS_WALLET_UPDATE, payload, (request) => this.wallets.update(request));
  }

  @MessagePattern(PAYOUTS_AGENT_KEY_ISSUE)
  issueKey(@Payload() payload: unknown) {
    return reply(PAYOUTS_AGENT_KEY_ISSUE, payload, (request) => this.wallets.issueKey(request));
  }

  @MessagePattern(PAYOUTS_AGENT_KEY_LIST)
  listKeys(@Payload() payload: unknown) {
    return reply(PAYOUTS_AGENT_KEY_LIST, payload, (request) => this.wallets.listKeys(request));
  }

  @MessagePattern(PAYOUTS_AGENT_KEY_REVOKE)
  revokeKey(@Payload() payload: unknown) {
    return reply(PAYOUTS_AGENT_KEY_REVOKE, payload, (request) => this.wallets.revokeKey(request));
  }

  @MessagePattern(PAYOUTS_AGENT_WALLET_GET)
  agentWallet(@Payload() payload: unknown) {
    return reply(PAYOUTS_AGENT_WALLET_GET, payload, (request) => this.wallets.agentWallet(request));
  }

  @MessagePattern(PAYOUTS_AGENT_PAYOUT_CREATE)
  createPayout(@Payload() payload: unknown) {
    return reply(PAYOUTS_AGENT_PAYOUT_CREATE, payload, (request) =>
      this.agentPayouts.create(request),
    );
  }

  @MessagePattern(PAYOUTS_PAYOUT_GET)
  getPayout(@Payload() payload: unknown) {
    return reply(PAYOUTS_PAYOUT_GET, payload, (request) => this.payouts.get(request));
  }

  @MessagePattern(PAYOUTS_PAYOUT_LIST)
  listPayouts(@Payload() payload: unknown) {
    return reply(PAYOUTS_PAYOUT_LIST, payload, (request) => this.payouts.list(request));
  }

  @MessagePattern(PAYOUTS_TEST_HELPER)
  testHelper(@Payload() payload: unknown) {
    return reply(PAYOUTS_TEST_HELPER, payload, (request) => this.payouts.testHelper(request));
  }
}
