import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import {
  ACTION_ID_MAX_LENGTH,
  AGENT_WALLET_STATUSES,
  CLIENT_REFERENCE_MAX_LENGTH,
  MAX_ALLOWED_RECIPIENTS,
  MAX_WALLET_AMOUNT,
  MIN_ALLOWED_RECIPIENTS,
  MIN_WALLET_AMOUNT,
  PHONE_PATTERN,
  RECIPIENT_NAME_MAX_LENGTH,
  WALLET_NAME_MAX_LENGTH,
  WALLET_NAME_MIN_LENGTH,
  WALLET_PROVIDERS,
  type AgentWalletStatus,
  type WalletProvider,
} from '@xaalis/kernel';
import { PaymentCredit } from './payouts.messages';
import { idPattern } from '../shared/formats';
import { ListRequest, MerchantScope } from '../shared/merchant-scope';

/**
 * Agent wallets' and payouts' bus messages (spec 4.3, CONTRACT 5), asked by the gateway and
 * answered by the payouts app, which checks each again with the bounds the DTOs use.
 */

/**
 * Which wallet of the merchant, in the scope's mode: any id a path may hold, so that one that
 * names no wallet is a 404 like another merchant's.
 */
export class AgentWalletRef extends MerchantScope {
  @IsString()
  @MaxLength(255)
  agent_wallet_id!: string;
}

/** `payouts.agent_wallet.create`: the id is fixed by the idempotency key, as a payment's is. */
export class CreateAgentWalletRequest extends MerchantScope {
  @Matches(idPattern('aw'), { message: 'agent_wallet_id must be an agent wallet id (aw_…)' })
  agent_wallet_id!: string;

  @IsString()
  @MaxLength(WALLET_NAME_MAX_LENGTH * 2)
  name!: string;

  @IsIn(WALLET_PROVIDERS)
  provider!: WalletProvider;

  @IsInt()
  @Min(MIN_WALLET_AMOUNT)
  @Max(MAX_WALLET_AMOUNT)
  max_payout_amount!: number;

  @IsOptional()
  @IsInt()
  @Min(MIN_WALLET_AMOUNT)
  @Max(MAX_WALLET_AMOUNT)
  max_daily_amount?: number | null;

  @IsArray()
  @ArrayMinSize(MIN_ALLOWED_RECIPIENTS)
  @ArrayMaxSize(MAX_ALLOWED_RECIPIENTS)
  @Matches(PHONE_PATTERN, { each: true })
  allowed_recipient_phones!: string[];
}

/**
 * `payouts.agent_wallet.update` (CONTRACT 5's PATCH): the fields present change;
 * `max_daily_amount: null` removes the daily cap.
 */
export class UpdateAgentWalletRequest extends AgentWalletRef {
  @IsOptional()
  @IsString()
  @Length(WALLET_NAME_MIN_LENGTH, WALLET_NAME_MAX_LENGTH * 2)
  name?: string;

  @IsOptional()
  @IsInt()
  @Min(MIN_WALLET_AMOUNT)
  @Max(MAX_WALLET_AMOUNT)
  max_payout_amount?: number;

  @ValidateIf((_, value) => value !== undefined && value !== null)
  @IsInt()
  @Min(MIN_WALLET_AMOUNT)
  @Max(MAX_WALLET_AMOUNT)
  max_daily_amount?: number | null;

  @IsOptional()
  @IsArray()
  @ArrayMinSize(MIN_ALLOWED_RECIPIENTS)
  @ArrayMaxSize(MAX_ALLOWED_RECIPIENTS)
  @Matches(PHONE_PATTERN, { each: true })
  allowed_recipient_phones?: string[];

  @IsOptional()
  @IsIn(AGENT_WALLET_STATUSES)
  status?: AgentWalletStatus;
}

export class ListAgentWalletsRequest extends ListRequest {}

/** `payouts.agent_key.issue`: the gateway made the secret and sends only its keyed hash. */
export class IssueAgentKeyRequest extends AgentWalletRef {
  @Matches(idPattern('agk'), { message: 'key_id must be an agent key id (agk_…)' })
  key_id!: string;

  @Matches(/^[0-9a-f]{64}$/, { message: 'secret_hash must be a keyed hash (64 hex digits)' })
  secret_hash!: string;
}

export class AgentKeyRef extends AgentWalletRef {
  @IsString()
  @MaxLength(255)
  key_id!: string;
}

export class PayoutRecipientMessage {
  @IsString()
  @Matches(PHONE_PATTERN)
  phone!: string;

  @IsOptional()
  @IsString()
  @MaxLength(RECIPIENT_NAME_MAX_LENGTH)
  name?: string | null;
}

/**
 * `payouts.agent.payout_create`: an agent key's payout. The wallet and the key come from the key
 * the gateway authenticated, never from the body; the payout id is fixed by the idempotency key.
 */
export class CreateAgentPayoutRequest extends MerchantScope {
  @Matches(idPattern('aw'))
  agent_wallet_id!: string;

  @Matches(idPattern('agk'))
  agent_key_id!: string;

  @Matches(idPattern('po'))
  payout_id!: string;

  @IsString()
  @Length(1, ACTION_ID_MAX_LENGTH)
  action_id!: string;

  @IsInt()
  @Min(1)
  @Max(MAX_WALLET_AMOUNT)
  amount!: number;

  @IsOptional()
  @IsString()
  currency?: string;

  @ValidateNested()
  @Type(() => PayoutRecipientMessage)
  recipient!: PayoutRecipientMessage;
}

/**
 * `payouts.payout.create`: a payout another context makes for its own account, without an agent
 * wallet (the exchange pays `receive_amount` out to the quoted phone). Its id is fixed by the
 * caller, so every retry finds the first run's payout; `credit_first` names the payment that
 * funds it, posted first if `payment.succeeded` has not reached the ledger yet.
 */
export class CreatePayoutRequest extends MerchantScope {
  @Matches(idPattern('po'))
  payout_id!: string;

  @IsIn(WALLET_PROVIDERS)
  provider!: WalletProvider;

  @IsInt()
  @Min(1)
  @Max(MAX_WALLET_AMOUNT)
  amount!: number;

  @ValidateNested()
  @Type(() => PayoutRecipientMessage)
  recipient!: PayoutRecipientMessage;

  @IsString()
  @Length(1, ACTION_ID_MAX_LENGTH)
  client_reference!: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => PaymentCredit)
  credit_first?: PaymentCredit;
}

export class PayoutRef extends MerchantScope {
  @IsString()
  @MaxLength(255)
  payout_id!: string;
}

/** `payouts.payout.list`: a wallet's payouts, newest first (spec 4.3). */
export class ListWalletPayoutsRequest extends ListRequest {
  @IsString()
  @MaxLength(255)
  agent_wallet_id!: string;

  @IsOptional()
  @IsString()
  @Length(1, CLIENT_REFERENCE_MAX_LENGTH)
  client_reference?: string;
}

/** CONTRACT 6: `POST /v1/test_helpers/payouts/{id}/succeed|fail`. */
export class PayoutTestHelperRequest extends PayoutRef {
  @IsIn(['succeed', 'fail'])
  action!: 'succeed' | 'fail';
}
