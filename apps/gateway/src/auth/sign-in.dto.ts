import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsString, Length, Matches, MaxLength } from 'class-validator';
import { AUTH_EMAIL_PATTERN, PASSWORD_MAX_LENGTH } from '@xaalis/identity';

export class SignInDto {
  @ApiProperty({ format: 'email', maxLength: 254 })
  @IsEmail()
  @Matches(AUTH_EMAIL_PATTERN, { message: 'email must be an email address' })
  @MaxLength(254)
  email!: string;

  /** No minimum here: a short password is simply wrong (401), not a malformed request. */
  @ApiProperty({ maxLength: PASSWORD_MAX_LENGTH, format: 'password' })
  @IsString()
  @Length(1, PASSWORD_MAX_LENGTH)
  password!: string;
}
