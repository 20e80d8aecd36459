import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { IsMetadata, IsPhone, URL_MAX_LENGTH } from '@xaalis/http';
import {
  CLIENT_REFERENCE_MAX_LENGTH,
  CURRENCIES,
  CUSTOMER_NAME_MAX_LENGTH,
  CUSTOMER_PROVIDERS,
  MAX_PAYMENT_AMOUNT,
  PAYMENT_DESCRIPTION_MAX_LENGTH,
  PHONE_PATTERN,
  type Currency,
  type CustomerProvider,
} from '@xaalis/kernel';

export class PaymentCustomerDto {
  @ApiPropertyOptional({ pattern: PHONE_PATTERN.source, example: '+221771234567' })
  @IsOptional()
  @IsString()
  @IsPhone()
  phone?: string;

  @ApiPropertyOptional({ maxLength: CUSTOMER_NAME_MAX_LENGTH, example: 'Awa Diop' })
  @IsOptional()
  @IsString()
  @MaxLength(CUSTOMER_NAME_MAX_LENGTH)
  name?: string;
}

/** An absolute http(s) URL: where the hosted page sends the customer back. */
function IsReturnUrl(): PropertyDecorator {
  return ValidateBy({
    name: 'isReturnUrl',
    validator: {
      validate: (value: unknown) => {
        if (typeof value !== 'string' || value.length > URL_MAX_LENGTH) return false;
        try {
          const url = new URL(value);
          return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
        } catch {
          return false;
        }
      },
      defaultMessage: () =>
        `must be an absolute http(s) URL of at most ${URL_MAX_LENGTH} characters`,
    },
  });
}

/** Spec 4.1 and 8: every field, bound and pattern of `POST /v1/payments`. */
export class CreatePaymentDto {
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    maximum: MAX_PAYMENT_AMOUNT,
    example: 5000,
    description: 'XOF',
  })
  @IsInt()
  @Min(1)
  @Max(MAX_PAYMENT_AMOUNT)
  amount!: number;

  // No `default`: generated clients would make the field required (openapi-typescript does).
  @ApiPropertyOptional({ enum: CURRENCIES, description: 'The only currency, and the default' })
  @IsOptional()
  @IsIn(CURRENCIES)
  currency?: Currency;

  @ApiPropertyOptional({
    enum: CUSTOMER_PROVIDERS,
    description: 'Skips the hosted method picker: `next_action` is ready at once.',
  })
  @IsOptional()
  @IsIn(CUSTOMER_PROVIDERS)
  provider?: CustomerProvider;

  @ApiPropertyOptional({ maxLength: PAYMENT_DESCRIPTION_MAX_LENGTH })
  @IsOptional()
  @IsString()
  @MaxLength(PAYMENT_DESCRIPTION_MAX_LENGTH)
  description?: string;

  @ApiPropertyOptional({ maxLength: CLIENT_REFERENCE_MAX_LENGTH, example: 'order_1234' })
  @IsOptional()
  @IsString()
  @MaxLength(CLIENT_REFERENCE_MAX_LENGTH)
  client_reference?: string;

  @ApiPropertyOptional({ type: PaymentCustomerDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => PaymentCustomerDto)
  customer?: PaymentCustomerDto;

  @ApiPropertyOptional({ format: 'uri', example: 'https://shop.example.sn/merci' })
  @IsOptional()
  @IsReturnUrl()
  success_url?: string;

  @ApiPropertyOptional({ format: 'uri', example: 'https://shop.example.sn/panier' })
  @IsOptional()
  @IsReturnUrl()
  cancel_url?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', maxLength: 500 },
    example: { order_id: '1234' },
  })
  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, string>;
}
