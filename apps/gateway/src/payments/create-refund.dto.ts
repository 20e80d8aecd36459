import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsString, Max, MaxLength, Min, IsOptional } from 'class-validator';
import { MAX_PAYMENT_AMOUNT } from '@xaalis/kernel';

/** CONTRACT 5: `POST /v1/refunds`; the full amount when `amount` is omitted. */
export class CreateRefundDto {
  @ApiProperty({ example: 'pay_01JD…' })
  @IsString()
  @MaxLength(255)
  payment!: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PAYMENT_AMOUNT })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_PAYMENT_AMOUNT)
  amount?: number;
}
