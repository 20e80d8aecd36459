import { ApiProperty } from '@nestjs/swagger';
import { UserView } from '@xaalis/identity';

/** Sign-up's and sign-in's body (CONTRACT 5 `{user}`); the session itself is the cookie. */
export class AuthResponse {
  @ApiProperty({ type: UserView })
  user!: UserView;
}
