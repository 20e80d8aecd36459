import { IsIn, IsInt, Matches } from 'class-validator';
import { MODES, type Mode } from '@xaalis/kernel';
import { idPattern } from './formats';

/** `payouts.balance.get`: the merchant's balance in one mode, asked by the gateway. */
export class BalanceRequest {
  @Matches(idPattern('mer'), { message: 'merchant_id must be a merchant id (mer_…)' })
  merchant_id!: string;

  @IsIn(MODES)
  mode!: Mode;
}

/** Integer XOF, never floats (CONTRACT 1). */
export class BalanceReply {
  @IsInt()
  available!: number;

  @IsInt()
  pending!: number;
}
