import { ApiProperty } from '@nestjs/swagger';
import { UserView } from '@xaalis/identity';
import { MEMBER_ROLES, type MemberRole } from '@xaalis/identity-domain';

export class MembershipResponse {
  @ApiProperty({ example: 'mer_01JD8ZP5V6W7X8Y9Z0A1B2C3D4' })
  merchant_id!: string;

  @ApiProperty({ enum: MEMBER_ROLES })
  role!: MemberRole;
}

/** `GET /dashboard/v1/me` (CONTRACT 5). */
export class MeResponse {
  @ApiProperty({ type: UserView })
  user!: UserView;

  @ApiProperty({ type: [MembershipResponse], description: 'Oldest first; empty for a new user' })
  memberships!: MembershipResponse[];
}
