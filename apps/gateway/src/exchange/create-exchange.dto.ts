import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import { OTP_MAX_LENGTH, QUOTE_TOKEN_MAX_LENGTH } from '@xaalis/kernel';

/**
 * Spec 4.5: `POST /v1/public/exchanges`. Both fields are required, so an empty one is refused
 * here as a missing one would be; whether the token and the code are right is the exchange's
 * decision (400 `invalid_quote`, `invalid_otp`).
 */
export class CreateExchangeDto {
  @ApiProperty({
    minLength: 1,
    maxLength: QUOTE_TOKEN_MAX_LENGTH,
    description: 'The `quote` token of `POST /v1/public/exchange-quotes`: single use, 10 minutes',
  })
  @IsString()
  @Length(1, QUOTE_TOKEN_MAX_LENGTH, {
    message: `must be 1 to ${QUOTE_TOKEN_MAX_LENGTH} characters`,
  })
  quote!: string;

  @ApiProperty({
    minLength: 1,
    maxLength: OTP_MAX_LENGTH,
    example: '123456',
    description: 'The one-time code sent to the phone; in test mode always `123456`',
  })
  @IsString()
  @Length(1, OTP_MAX_LENGTH, { message: `must be 1 to ${OTP_MAX_LENGTH} characters` })
  otp!: string;
}
