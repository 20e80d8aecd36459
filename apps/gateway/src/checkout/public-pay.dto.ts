import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { IsPhone } from '@xaalis/http';
import { CUSTOMER_PROVIDERS, PHONE_PATTERN, type CustomerProvider } from '@xaalis/kernel';

/**
 * The payment client secret in the query: the customer side's only credential. A missing one is
 * answered like a wrong one (404), so every bad credential looks alike.
 */
export class ClientSecretQuery {
  @ApiProperty({ description: 'Payment client secret (`pay_…_secret_…`).' })
  @IsOptional()
  @IsString()
  @Length(0, 255)
  cs?: string;
}

/** Spec 4.1: the public pay step. */
export class PublicPayDto {
  @ApiProperty({ enum: CUSTOMER_PROVIDERS })
  @IsIn(CUSTOMER_PROVIDERS)
  provider!: CustomerProvider;

  @ApiPropertyOptional({ pattern: PHONE_PATTERN.source })
  @IsOptional()
  @IsString()
  @IsPhone()
  phone?: string;
}
