import { ApiProperty } from '@nestjs/swagger';

/** `PUT /dashboard/v1/merchants/{merchantId}/live/provider-identities/wave` (CONTRACT 5). */
export class ProviderIdentityResponse {
  @ApiProperty({ enum: ['provider_identity'] })
  object!: 'provider_identity';

  @ApiProperty({ example: 'mer_01JD8ZP5V6W7X8Y9Z0A1B2C3D4' })
  merchant_id!: string;

  @ApiProperty({ enum: ['wave'] })
  provider!: 'wave';

  @ApiProperty({ enum: [true], description: 'Provider identities are live only' })
  livemode!: true;

  @ApiProperty({ description: "The merchant's aggregated merchant id at Wave" })
  aggregated_merchant_id!: string;
}
