import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsString, Matches } from 'class-validator';
import {
  CUSTOMER_PROVIDERS,
  EXCHANGE_STATUSES,
  type CustomerProvider,
  type ExchangeStatus,
} from '@xaalis/kernel';
import { idPattern, ISO_MS } from '../shared/formats';

/** CONTRACT 8: a quote. `quote` is the opaque token, shown only in this answer. */
export class ExchangeQuoteReply {
  @ApiProperty({ enum: ['exchange_quote'] })
  @IsIn(['exchange_quote'])
  object!: 'exchange_quote';

  @ApiProperty({ example: 'exq_01JD8ZP5V6W7X8Y9Z0A1B2C3D4' })
  @Matches(idPattern('exq'))
  id!: string;

  @ApiProperty({
    description:
      'Opaque, single-use token to send to `POST /v1/public/exchanges`; valid 10 minutes',
  })
  @IsString()
  quote!: string;

  @ApiProperty({ enum: CUSTOMER_PROVIDERS, description: 'The provider the customer pays with' })
  @IsIn(CUSTOMER_PROVIDERS)
  from!: CustomerProvider;

  @ApiProperty({ enum: CUSTOMER_PROVIDERS, description: 'The provider the phone receives with' })
  @IsIn(CUSTOMER_PROVIDERS)
  to!: CustomerProvider;

  @ApiProperty({ type: 'integer', description: 'XOF the customer pays' })
  @IsInt()
  send_amount!: number;

  @ApiProperty({ type: 'integer', description: 'XOF kept by the service, out of `send_amount`' })
  @IsInt()
  fee!: number;

  @ApiProperty({ type: 'integer', description: 'XOF paid out to the phone: send_amount − fee' })
  @IsInt()
  receive_amount!: number;

  @ApiProperty({ example: '2026-11-22T10:10:00.000Z' })
  @Matches(ISO_MS)
  expires_at!: string;
}

/** Spec 2.9. */
export class ExchangeReply {
  @ApiProperty({ enum: ['exchange'] })
  @IsIn(['exchange'])
  object!: 'exchange';

  @ApiProperty({ example: 'ex_01JD8ZP5V6W7X8Y9Z0A1B2C3D4' })
  @Matches(idPattern('ex'))
  id!: string;

  @ApiProperty({ enum: EXCHANGE_STATUSES })
  @IsIn(EXCHANGE_STATUSES)
  status!: ExchangeStatus;

  @ApiProperty({ enum: CUSTOMER_PROVIDERS })
  @IsIn(CUSTOMER_PROVIDERS)
  from!: CustomerProvider;

  @ApiProperty({ enum: CUSTOMER_PROVIDERS })
  @IsIn(CUSTOMER_PROVIDERS)
  to!: CustomerProvider;

  @ApiProperty({ type: 'integer', description: 'XOF' })
  @IsInt()
  send_amount!: number;

  @ApiProperty({ type: 'integer', description: 'XOF' })
  @IsInt()
  fee!: number;

  @ApiProperty({ type: 'integer', description: 'XOF' })
  @IsInt()
  receive_amount!: number;

  @ApiProperty({ enum: ['XOF'] })
  @IsIn(['XOF'])
  currency!: 'XOF';

  @ApiProperty({ description: 'Always false: exchanges run in test mode' })
  @IsBoolean()
  livemode!: boolean;

  @ApiProperty({ example: '2026-11-22T10:00:00.000Z' })
  @Matches(ISO_MS)
  created_at!: string;

  @ApiProperty({ description: 'The hosted checkout where the customer pays `send_amount`' })
  @IsString()
  checkout_url!: string;

  @ApiProperty({ description: "The payment's client secret: follow the exchange with it" })
  @IsString()
  cs!: string;
}
