import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { IsPhone } from '@xaalis/http';

/** The payment client secret in the query: the customer side's only credential. */
export class ClientSecretQuery {
  @ApiProperty({ description: 'Payment client secret (`pay_…_secret_…`).' })
  @IsString()
  @Length(1, 255)
  cs!: string;
}

/** Spec 4.1: the public pay step. */
export class PublicPayDto {
  @ApiProperty({ enum: ['wave', 'orange_money'] })
  @IsIn(['wave', 'orange_money'])
  provider!: 'wave' | 'orange_money';

  @ApiPropertyOptional({ pattern: '^\\+2217[0-9]{8}$' })
  @IsOptional()
  @IsString()
  @IsPhone()
  phone?: string;
}
