import { ApiProperty } from '@nestjs/swagger';

/** A dashboard user as our API shows it (CONTRACT 5 `{user}`). */
export class UserView {
  @ApiProperty({ enum: ['user'] })
  object!: 'user';

  @ApiProperty({ example: 'usr_01JD8ZP5V6W7X8Y9Z0A1B2C3D4' })
  id!: string;

  @ApiProperty({ format: 'email', description: 'Lower-cased' })
  email!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;
}

export const toUserView = (user: {
  id: string;
  email: string;
  name: string;
  createdAt: Date | string;
}): UserView => ({
  object: 'user',
  id: user.id,
  email: user.email,
  name: user.name,
  created_at: new Date(user.createdAt).toISOString(),
});
