import { ApiProperty } from '@nestjs/swagger';
import { BalanceReply } from '@xaalis/contracts';
import { CURRENCIES, type Currency } from '@xaalis/kernel';

/** `GET /v1/balance` (CONTRACT 5): the payouts ledger's balance, with what the gateway adds. */
export class BalanceResponse extends BalanceReply {
  @ApiProperty({ enum: ['balance'] })
  object!: 'balance';

  @ApiProperty()
  livemode!: boolean;

  @ApiProperty({ enum: CURRENCIES })
  currency!: Currency;
}
