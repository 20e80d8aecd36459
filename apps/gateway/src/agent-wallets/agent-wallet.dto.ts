import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  Min,
  ValidateIf,
} from 'class-validator';
import { IsPhone } from '@xaalis/http';
import {
  AGENT_WALLET_STATUSES,
  MAX_ALLOWED_RECIPIENTS,
  MAX_WALLET_AMOUNT,
  MIN_ALLOWED_RECIPIENTS,
  MIN_WALLET_AMOUNT,
  PHONE_PATTERN,
  WALLET_NAME_MAX_LENGTH,
  WALLET_NAME_MIN_LENGTH,
  WALLET_PROVIDERS,
  type AgentWalletStatus,
  type WalletProvider,
} from '@xaalis/kernel';
import { CodePointLength } from '../common/code-point-length';

/**
 * A PATCH field that may be left out but not sent as null: `@IsOptional` would let null through
 * to the payouts app, which has no meaning for it (only `max_daily_amount` does).
 */
const UnlessAbsent = () => ValidateIf((_, value: unknown) => value !== undefined);

const NAME = {
  minLength: WALLET_NAME_MIN_LENGTH,
  maxLength: WALLET_NAME_MAX_LENGTH,
  example: 'Remboursements clients',
  description: 'Counted in characters (code points)',
};
const AMOUNT = { type: 'integer' as const, minimum: MIN_WALLET_AMOUNT, maximum: MAX_WALLET_AMOUNT };
const PHONES = {
  type: 'array' as const,
  minItems: MIN_ALLOWED_RECIPIENTS,
  maxItems: MAX_ALLOWED_RECIPIENTS,
  items: { type: 'string' as const, pattern: PHONE_PATTERN.source },
  example: ['+221771234567'],
  description: 'The recipients payouts may go to',
};
const DAILY = { ...AMOUNT, nullable: true };
const DAILY_CAP = 'XOF cap on new payouts per Dakar calendar day';

/** Spec 4.3 and 8: `POST /v1/agent-wallets` and its dashboard twin. */
export class CreateAgentWalletDto {
  @ApiProperty(NAME)
  @IsString()
  @CodePointLength(WALLET_NAME_MIN_LENGTH, WALLET_NAME_MAX_LENGTH)
  name!: string;

  @ApiProperty({ enum: WALLET_PROVIDERS })
  @IsIn(WALLET_PROVIDERS)
  provider!: WalletProvider;

  @ApiProperty({ ...AMOUNT, description: 'XOF cap for one payout', example: 50_000 })
  @IsInt()
  @Min(MIN_WALLET_AMOUNT)
  @Max(MAX_WALLET_AMOUNT)
  max_payout_amount!: number;

  @ApiPropertyOptional({ ...DAILY, description: `${DAILY_CAP}; null or absent: no cap` })
  @IsOptional()
  @IsInt()
  @Min(MIN_WALLET_AMOUNT)
  @Max(MAX_WALLET_AMOUNT)
  max_daily_amount?: number | null;

  @ApiProperty(PHONES)
  @IsArray()
  @ArrayMinSize(MIN_ALLOWED_RECIPIENTS)
  @ArrayMaxSize(MAX_ALLOWED_RECIPIENTS)
  @IsString({ each: true })
  @IsPhone({ each: true })
  allowed_recipient_phones!: string[];
}

/**
 * CONTRACT 5: `PATCH /v1/agent-wallets/{id}` and its dashboard twin. The fields sent change, with
 * the bounds of creation; `max_daily_amount: null` removes the daily cap; an empty body changes
 * nothing.
 */
export class UpdateAgentWalletDto {
  @ApiPropertyOptional(NAME)
  @UnlessAbsent()
  @IsString()
  @CodePointLength(WALLET_NAME_MIN_LENGTH, WALLET_NAME_MAX_LENGTH)
  name?: string;

  @ApiPropertyOptional({ ...AMOUNT, description: 'XOF cap for one payout' })
  @UnlessAbsent()
  @IsInt()
  @Min(MIN_WALLET_AMOUNT)
  @Max(MAX_WALLET_AMOUNT)
  max_payout_amount?: number;

  @ApiPropertyOptional({ ...DAILY, description: `${DAILY_CAP}; null removes the cap` })
  @IsOptional()
  @IsInt()
  @Min(MIN_WALLET_AMOUNT)
  @Max(MAX_WALLET_AMOUNT)
  max_daily_amount?: number | null;

  @ApiPropertyOptional(PHONES)
  @UnlessAbsent()
  @IsArray()
  @ArrayMinSize(MIN_ALLOWED_RECIPIENTS)
  @ArrayMaxSize(MAX_ALLOWED_RECIPIENTS)
  @IsString({ each: true })
  @IsPhone({ each: true })
  allowed_recipient_phones?: string[];

  @ApiPropertyOptional({ enum: AGENT_WALLET_STATUSES })
  @UnlessAbsent()
  @IsIn(AGENT_WALLET_STATUSES)
  status?: AgentWalletStatus;
}
