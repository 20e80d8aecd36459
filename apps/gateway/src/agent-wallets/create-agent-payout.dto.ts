import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { IsPhone } from '@xaalis/http';
import {
  ACTION_ID_MAX_LENGTH,
  CURRENCIES,
  MAX_WALLET_AMOUNT,
  PHONE_PATTERN,
  RECIPIENT_NAME_MAX_LENGTH,
  type Currency,
} from '@xaalis/kernel';

export class PayoutRecipientDto {
  @ApiProperty({ pattern: PHONE_PATTERN.source, example: '+221771234567' })
  @IsString()
  @IsPhone()
  phone!: string;

  @ApiPropertyOptional({ maxLength: RECIPIENT_NAME_MAX_LENGTH, example: 'Awa Diop' })
  @IsOptional()
  @IsString()
  @MaxLength(RECIPIENT_NAME_MAX_LENGTH)
  name?: string;
}

/**
 * Spec 4.3: `POST /v1/agent/payouts`. The wallet and the provider come from the agent key, never
 * from the body. Lengths here count UTF-16 units, as the payouts message checks them again.
 */
export class CreateAgentPayoutDto {
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    maximum: MAX_WALLET_AMOUNT,
    example: 5000,
    description: 'XOF the recipient receives',
  })
  @IsInt()
  @Min(1)
  @Max(MAX_WALLET_AMOUNT)
  amount!: number;

  // No `default`: generated clients would make the field required (openapi-typescript does).
  @ApiPropertyOptional({ enum: CURRENCIES, description: 'The only currency, and the default' })
  @IsOptional()
  @IsIn(CURRENCIES)
  currency?: Currency;

  @ApiProperty({ type: PayoutRecipientDto })
  @IsObject()
  @ValidateNested()
  @Type(() => PayoutRecipientDto)
  recipient!: PayoutRecipientDto;

  @ApiProperty({
    minLength: 1,
    maxLength: ACTION_ID_MAX_LENGTH,
    example: 'refund-order-1234',
    description:
      'Stable business action id, unique within the wallet: the same id returns the original ' +
      'payout, whatever the idempotency key (CONTRACT 3)',
  })
  @IsString()
  @Length(1, ACTION_ID_MAX_LENGTH)
  action_id!: string;
}
