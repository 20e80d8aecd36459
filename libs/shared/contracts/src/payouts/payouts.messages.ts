import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Matches, Min, ValidateNested } from 'class-validator';
import { idPattern } from '../shared/formats';
import { MerchantScope } from '../shared/merchant-scope';

/** `payouts.balance.get`: the merchant's balance in one mode, asked by the gateway. */
export class BalanceRequest extends MerchantScope {}

/** Integer XOF, never floats (CONTRACT 1). */
export class BalanceReply {
  @ApiProperty({ type: 'integer', description: 'XOF; refunds and payouts draw on it' })
  @IsInt()
  available!: number;

  @ApiProperty({ type: 'integer', description: 'XOF held for refunds and payouts in flight' })
  @IsInt()
  pending!: number;
}

/**
 * `payouts.ledger.hold`: moves `amount` from available to pending for a refund or payout, once
 * per `ref`; `insufficient_funds` when available is short. A refund names its payment so the
 * payment's credit is posted first if the `payment.succeeded` event has not arrived yet.
 */
export class PaymentCredit {
  @Matches(idPattern('pay'))
  id!: string;

  @IsInt()
  @Min(1)
  amount!: number;

  @IsInt()
  @Min(0)
  fee!: number;
}

/** What a hold is for: `refund:<re_id>` or `payout:<po_id>`, one hold each. */
const HOLD_REF = /^(refund|payout):[a-z]+_[0-9A-Za-z]{20,}$/;

export class LedgerHoldRequest extends BalanceRequest {
  @Matches(HOLD_REF, { message: 'ref must be refund:<re_id> or payout:<po_id>' })
  ref!: string;

  @IsInt()
  @Min(1)
  amount!: number;

  @IsOptional()
  @ValidateNested()
  @Type(() => PaymentCredit)
  credit_first?: PaymentCredit;
}

/** `payouts.ledger.settle` / `payouts.ledger.release`: the end of a hold, once. */
export class LedgerHoldEndRequest extends BalanceRequest {
  @Matches(HOLD_REF, { message: 'ref must be refund:<re_id> or payout:<po_id>' })
  ref!: string;
}

export class LedgerHoldReply {
  @IsIn(['held', 'settled', 'released'])
  state!: 'held' | 'settled' | 'released';
}
