import { ApiProperty } from '@nestjs/swagger';
import { MEMBER_ROLES, type MemberRole } from '@xaalis/identity-domain';

/** `POST /dashboard/v1/merchants` (CONTRACT 5). */
export class CreatedMerchant {
  @ApiProperty({ enum: ['merchant'] })
  object!: 'merchant';

  @ApiProperty({ example: 'mer_01JD8ZP5V6W7X8Y9Z0A1B2C3D4' })
  id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({
    example: 'whsec_mWsGHTgLGqB4x5OowlAvdeuDpHCQ0W3b',
    description: 'Signs the webhooks; shown this once, never retrievable',
  })
  webhook_secret!: string;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;
}

/** `POST /dashboard/v1/merchants/{merchantId}/members` (CONTRACT 5). */
export class AddedMember {
  @ApiProperty({ example: 'mer_01JD8ZP5V6W7X8Y9Z0A1B2C3D4' })
  merchant_id!: string;

  @ApiProperty({ example: 'usr_01JD8ZP5V6W7X8Y9Z0A1B2C3D4' })
  user_id!: string;

  @ApiProperty({ enum: MEMBER_ROLES })
  role!: MemberRole;
}
