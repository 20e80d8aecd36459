import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { idPattern, ISO_MS } from './formats';
import { ListReply } from './list-reply';
import { ListRequest, MAX_PAYMENT_AMOUNT, MerchantScope } from './payments.messages';

/**
 * Refunds' bus messages (CONTRACT 5), owned by the payments app: a refund lives in its payment's
 * stream. Checked again at the payments app with the gateway's bounds, as payments' are.
 */

/** `payments.refund.create` (CONTRACT 5). */
export class CreateRefundRequest extends MerchantScope {
  /** Chosen by the caller, the same for every retry of one idempotency key (as a payment's). */
  @Matches(idPattern('re'))
  refund_id!: string;

  @IsString()
  @MaxLength(255)
  payment_id!: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_PAYMENT_AMOUNT)
  amount?: number;
}

/** `payments.refund.get`. */
export class RefundRef extends MerchantScope {
  @IsString()
  @MaxLength(255)
  refund_id!: string;
}

/** `payments.refund.list` (CONTRACT 4), newest first; `payment` keeps one payment's refunds. */
export class ListRefundsRequest extends ListRequest {
  @IsOptional()
  @Matches(idPattern('pay'))
  payment?: string;
}

export class RefundReply {
  @IsIn(['refund'])
  object!: 'refund';

  @Matches(idPattern('re'))
  id!: string;

  @Matches(idPattern('pay'))
  payment!: string;

  @IsInt()
  amount!: number;

  @IsIn(['pending', 'succeeded', 'failed'])
  status!: 'pending' | 'succeeded' | 'failed';

  @IsOptional()
  @IsString()
  failure_reason!: string | null;

  @Matches(ISO_MS)
  created_at!: string;
}

export class RefundListReply extends ListReply(RefundReply) {}
