import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  Allow,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  ValidateNested,
} from 'class-validator';
import {
  AGENT_WALLET_STATUSES,
  CURRENCIES,
  PAYOUT_STATUSES,
  WALLET_PROVIDERS,
  type AgentWalletStatus,
  type Currency,
  type PayoutStatus,
  type WalletProvider,
} from '@xaalis/kernel';
import { idPattern, ISO_MS } from '../shared/formats';
import { ListReply } from '../shared/list-reply';

/**
 * What the payouts app answers of wallets, agent keys and payouts (spec 2.5, 2.6, CONTRACT 5),
 * documented for the OpenAPI document beside the checks the gateway runs on a reply.
 */

/** Spec 2.6 plus CONTRACT 5's `policy_version`. */
export class AgentWalletReply {
  @ApiProperty({ example: 'aw_01JD8ZP5V6W7X8Y9Z0A1B2C3D4' })
  @Matches(idPattern('aw'))
  id!: string;

  @ApiProperty({ enum: ['agent_wallet'] })
  @IsIn(['agent_wallet'])
  object!: 'agent_wallet';

  @ApiProperty()
  @IsBoolean()
  livemode!: boolean;

  @ApiProperty()
  @IsString()
  name!: string;

  @ApiProperty({ enum: AGENT_WALLET_STATUSES })
  @IsIn(AGENT_WALLET_STATUSES)
  status!: AgentWalletStatus;

  @ApiProperty({ enum: WALLET_PROVIDERS })
  @IsIn(WALLET_PROVIDERS)
  provider!: WalletProvider;

  @ApiProperty({ type: 'integer', description: 'XOF cap for one payout' })
  @IsInt()
  max_payout_amount!: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'XOF cap on new payouts per Dakar calendar day; null: no cap',
  })
  @IsOptional()
  @IsInt()
  max_daily_amount!: number | null;

  @ApiProperty({ type: [String], example: ['+221771234567'] })
  @IsArray()
  @IsString({ each: true })
  allowed_recipient_phones!: string[];

  @ApiProperty({
    type: 'integer',
    description: '1 at creation, one higher with each change of the policy',
  })
  @IsInt()
  policy_version!: number;

  @ApiProperty({ format: 'date-time' })
  @Matches(ISO_MS)
  created_at!: string;

  @ApiProperty({ format: 'date-time' })
  @Matches(ISO_MS)
  updated_at!: string;
}

export class AgentWalletListReply extends ListReply(AgentWalletReply) {}

/** `GET /v1/agent/wallet`: the wallet and what is left of the current Dakar day. */
export class AgentWalletSpendingReply extends AgentWalletReply {
  @ApiProperty({
    type: 'integer',
    description: "XOF of today's pending, processing and succeeded payouts (Dakar day)",
  })
  @IsInt()
  spent_today!: number;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Null without a daily cap' })
  @IsOptional()
  @IsInt()
  remaining_today!: number | null;
}

/** CONTRACT 5's agent key, never with its secret (the issuing answer adds it, once). */
export class AgentKeyObjectReply {
  @ApiProperty({ example: 'agk_01JD8ZP5V6W7X8Y9Z0A1B2C3D4' })
  @Matches(idPattern('agk'))
  id!: string;

  @ApiProperty({ enum: ['agent_key'] })
  @IsIn(['agent_key'])
  object!: 'agent_key';

  @ApiProperty()
  @Matches(idPattern('aw'))
  agent_wallet_id!: string;

  @ApiProperty()
  @IsBoolean()
  livemode!: boolean;

  @ApiProperty({ format: 'date-time' })
  @Matches(ISO_MS)
  created_at!: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  @Allow()
  revoked_at!: string | null;
}

export class AgentKeyListReply extends ListReply(AgentKeyObjectReply) {}

export class PayoutRecipientReply {
  @ApiProperty({ example: '+221771234567' })
  @IsString()
  phone!: string;

  @ApiProperty({ type: 'string', nullable: true })
  @Allow()
  name!: string | null;
}

/** Spec 2.5 plus CONTRACT 5's `agent_key_id` and `policy_version`. */
export class PayoutReply {
  @ApiProperty({ example: 'po_01JD8ZP5V6W7X8Y9Z0A1B2C3D4' })
  @Matches(idPattern('po'))
  id!: string;

  @ApiProperty({ enum: ['payout'] })
  @IsIn(['payout'])
  object!: 'payout';

  @ApiProperty({ type: 'string', nullable: true })
  @Allow()
  agent_wallet_id!: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: 'The agent key that made it' })
  @Allow()
  agent_key_id!: string | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: "The wallet policy's version the payout was judged under",
  })
  @IsOptional()
  @IsInt()
  policy_version!: number | null;

  @ApiProperty()
  @IsBoolean()
  livemode!: boolean;

  @ApiProperty({ type: 'integer', description: 'XOF the recipient receives' })
  @IsInt()
  amount!: number;

  @ApiProperty({ type: 'integer', description: 'XOF, taken from available with the amount' })
  @IsInt()
  fee!: number;

  @ApiProperty({ enum: CURRENCIES })
  @IsIn(CURRENCIES)
  currency!: Currency;

  @ApiProperty({ enum: [...WALLET_PROVIDERS, 'mock'] })
  @IsIn([...WALLET_PROVIDERS, 'mock'])
  provider!: WalletProvider | 'mock';

  @ApiProperty({ enum: PAYOUT_STATUSES })
  @IsIn(PAYOUT_STATUSES)
  status!: PayoutStatus;

  @ApiProperty({ type: PayoutRecipientReply })
  @ValidateNested()
  @Type(() => PayoutRecipientReply)
  recipient!: PayoutRecipientReply;

  @ApiProperty({ type: 'string', nullable: true, description: "The agent's `action_id`" })
  @Allow()
  client_reference!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  @Allow()
  failure_reason!: string | null;

  @ApiProperty({ format: 'date-time' })
  @Matches(ISO_MS)
  created_at!: string;

  @ApiProperty({ format: 'date-time' })
  @Matches(ISO_MS)
  updated_at!: string;
}

export class PayoutListReply extends ListReply(PayoutReply) {}
