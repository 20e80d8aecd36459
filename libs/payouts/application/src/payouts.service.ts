import { Injectable } from '@nestjs/common';
import type {
  ListWalletPayoutsRequest,
  PayoutListReply,
  PayoutRef,
  PayoutReply,
  PayoutTestHelperRequest,
} from '@xaalis/contracts';
import { forbidden, PAYOUT_FAILURE_REASONS } from '@xaalis/kernel';
import { toPayoutObject } from '@xaalis/payouts-domain';
import { PayoutOutcomes } from './payout-outcomes';
import { PayoutsQueries } from './payouts.queries';

/** Reads of payouts (spec 4.3) and CONTRACT 6's test helpers. */
@Injectable()
export class PayoutsService {
  constructor(
    private readonly queries: PayoutsQueries,
    private readonly outcomes: PayoutOutcomes,
  ) {}

  async get(request: PayoutRef): Promise<PayoutReply> {
    return toPayoutObject(
      await this.queries.payout(request.merchant_id, request.mode, request.payout_id),
    );
  }

  async list(request: ListWalletPayoutsRequest): Promise<PayoutListReply> {
    const rows = await this.queries.listPayouts(
      request.merchant_id,
      request.mode,
      request.agent_wallet_id,
      {
        limit: request.limit,
        startingAfter: request.starting_after,
        clientReference: request.client_reference,
      },
    );
    return {
      data: rows.slice(0, request.limit).map(toPayoutObject),
      has_more: rows.length > request.limit,
    };
  }

  /**
   * Exactly the effects of the real trigger (CONTRACT 6): the provider's answer would end the
   * payout through the same `end`, with the same events, money and webhooks.
   */
  async testHelper(request: PayoutTestHelperRequest): Promise<PayoutReply> {
    if (request.mode !== 'test') throw forbidden('Test helpers work with test keys only.');
    const payout = await this.queries.payout(request.merchant_id, request.mode, request.payout_id);
    const ended = await this.outcomes.end(
      payout.payoutId,
      request.action === 'succeed'
        ? { status: 'succeeded' }
        : { status: 'failed', reason: PAYOUT_FAILURE_REASONS.recipientRefused },
    );
    return toPayoutObject(ended);
  }
}
