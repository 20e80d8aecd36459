import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsIn, MaxLength } from 'class-validator';
import { MEMBER_ROLES, type MemberRole } from '@xaalis/identity-domain';

export class AddMemberDto {
  @ApiProperty({ format: 'email', description: 'Email of an existing user.' })
  @IsEmail()
  @MaxLength(254)
  email!: string;

  @ApiProperty({ enum: MEMBER_ROLES })
  @IsIn(MEMBER_ROLES)
  role!: MemberRole;
}
