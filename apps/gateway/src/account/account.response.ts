import { ApiProperty } from '@nestjs/swagger';

/** `GET` and `PATCH /v1/account` (CONTRACT 5): the merchant as one mode's key sees it. */
export class AccountResponse {
  @ApiProperty({ enum: ['account'] })
  object!: 'account';

  @ApiProperty({ description: 'The merchant id', example: 'mer_01JD8ZP5V6W7X8Y9Z0A1B2C3D4' })
  id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ description: 'Whether the key is a live one' })
  livemode!: boolean;

  @ApiProperty({
    type: 'string',
    format: 'uri',
    nullable: true,
    description: "The mode's default webhook endpoint; null until one is set",
  })
  webhook_url!: string | null;
}
