import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, CONFIG, type XaalisConfig } from '@xaalis/config';
import type { CreatePayoutRequest, PayoutReply } from '@xaalis/contracts';
import type { Clock } from '@xaalis/kernel';
import { Ledger } from '@xaalis/ledger';
import { payoutHold } from '@xaalis/ledger-domain';
import {
  decidePayout,
  initialPayoutState,
  toPayoutObject,
  type CreateDirectPayout,
  type PayoutFeeSchedule,
} from '@xaalis/payouts-domain';
import { PayoutsCommands } from './payouts.commands';
import { PayoutsQueries } from './payouts.queries';

/**
 * `payouts.payout.create`: a payout another context makes for its own account, without an agent
 * wallet (the exchange pays `receive_amount` out to the quoted phone). The ledger and the payout's
 * stream cannot share a transaction (in EventStoreDB they are two stores), so the steps go in an
 * order where a crash between any two neither loses nor doubles money:
 *
 * 1. `credit_first`: the funding payment's credit, in case its `payment.succeeded` has not
 *    reached the ledger yet; keyed by the payment, so it is posted once, whichever comes first;
 * 2. the hold: amount + fee leave `available`, keyed `payout:<po_id>`, so a retry holds nothing
 *    more; or `insufficient_funds`, and neither a hold nor a payout exists;
 * 3. the payout's stream, appended expecting none: a retry finds it and decides nothing.
 *
 * A crash after 1 or 2 leaves money credited or held and no payout. The caller repairs it: it is
 * a durable job that asks again with the same payout_id until it gets an answer, and that retry
 * finds no stream, holds nothing more, and creates it. This is why no `payout.claim_hold` job is
 * written with the hold, unlike an agent's (`PayoutHolds`): an agent may never come back, and
 * its hold would stay taken for nothing; this caller always comes back, and the payout it still
 * wants is created then, never given back in between. A retry after 3 answers the payout as it
 * is now (pending, or ended).
 */
@Injectable()
export class DirectPayoutsService {
  private readonly fees: PayoutFeeSchedule;

  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CONFIG) config: XaalisConfig,
    private readonly ledger: Ledger,
    private readonly commands: PayoutsCommands,
    private readonly queries: PayoutsQueries,
  ) {
    this.fees = config.payoutFeeBps;
  }

  async create(request: CreatePayoutRequest): Promise<PayoutReply> {
    const command = this.createPayout(request);
    // Decided first on the stream as it is: a retry once the payout exists touches no money (and
    // another request under its id is refused), and the fee to hold is the decider's.
    const existing = await this.queries.findPayout(request.payout_id);
    if (existing) {
      decidePayout(command, existing);
      return toPayoutObject(existing);
    }
    const [created] = decidePayout(command, initialPayoutState());
    if (created?.type !== 'PayoutCreated') throw new Error('CreateDirectPayout created nothing');

    await this.holdFunds(request, created.data.fee);
    const { state } = await this.commands.payout(request.payout_id, command, { newStream: true });
    return toPayoutObject(state);
  }

  /** Steps 1 and 2: both keyed, so a retry after a crash posts nothing twice. */
  private async holdFunds(request: CreatePayoutRequest, fee: number): Promise<void> {
    const { merchant_id: merchantId, mode } = request;
    const credit = request.credit_first;
    if (credit) {
      await this.ledger.creditPayment({
        paymentId: credit.id,
        merchantId,
        mode,
        amount: credit.amount,
        fee: credit.fee,
      });
    }
    await this.ledger.hold({
      ref: payoutHold(request.payout_id),
      merchantId,
      mode,
      amount: request.amount,
      fee,
    });
  }

  private createPayout(request: CreatePayoutRequest): CreateDirectPayout {
    return {
      type: 'CreateDirectPayout',
      data: {
        payoutId: request.payout_id,
        merchantId: request.merchant_id,
        mode: request.mode,
        provider: request.provider,
        amount: request.amount,
        recipient: { phone: request.recipient.phone, name: request.recipient.name ?? null },
        clientReference: request.client_reference,
        fees: this.fees,
        now: this.clock.now(),
      },
    };
  }
}
