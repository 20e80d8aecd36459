import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { MAX_PAYMENT_AMOUNT, REFUND_STATUSES, type RefundStatus } from '@xaalis/kernel';
import { idPattern, ISO_MS } from '../shared/formats';
import { ListReply } from '../shared/list-reply';
import { ListRequest, MerchantScope } from '../shared/merchant-scope';

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

/** A refund as `GET /v1/refunds/{id}` returns it (CONTRACT 5). */
export class RefundReply {
  @ApiProperty({ enum: ['refund'] })
  @IsIn(['refund'])
  object!: 'refund';

  @ApiProperty({ example: 're_01JD8ZP5V6W7X8Y9Z0A1B2C3D4' })
  @Matches(idPattern('re'))
  id!: string;

  @ApiProperty({ description: 'The refunded payment', example: 'pay_01JD8ZP5V6W7X8Y9Z0A1B2C3D4' })
  @Matches(idPattern('pay'))
  payment!: string;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'XOF' })
  @IsInt()
  amount!: number;

  @ApiProperty({ enum: REFUND_STATUSES })
  @IsIn(REFUND_STATUSES)
  status!: RefundStatus;

  @ApiProperty({ type: 'string', nullable: true, description: 'Why a `failed` refund failed' })
  @IsOptional()
  @IsString()
  failure_reason!: string | null;

  @ApiProperty({ format: 'date-time' })
  @Matches(ISO_MS)
  created_at!: string;
}

export class RefundListReply extends ListReply(RefundReply) {}
