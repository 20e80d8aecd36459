import { ApiProperty } from '@nestjs/swagger';
import type { RolledWebhookSecret } from '@xaalis/identity';

/** `POST /dashboard/v1/merchants/{merchantId}/webhook-secret/roll`. */
export class RolledWebhookSecretResponse implements RolledWebhookSecret {
  @ApiProperty({ enum: ['webhook_secret'] })
  object!: 'webhook_secret';

  @ApiProperty({
    example: 'whsec_mWsGHTgLGqB4x5OowlAvdeuDpHCQ0W3b',
    description:
      'The new secret, shown in this response only (a replay with the same idempotency key ' +
      'shows it again)',
  })
  webhook_secret!: string;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description:
      'Until when the replaced secret still signs beside the new one; null when `overlap_hours` was 0',
  })
  previous_expires_at!: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;
}
