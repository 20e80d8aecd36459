import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsString, Length, MaxLength } from 'class-validator';
import { PASSWORD_MAX_LENGTH } from '@xaalis/identity';

export class SignInDto {
  @ApiProperty({ format: 'email', maxLength: 254 })
  @IsEmail()
  @MaxLength(254)
  email!: string;

  /** No minimum here: a short password is simply wrong (401), not a malformed request. */
  @ApiProperty({ maxLength: PASSWORD_MAX_LENGTH, format: 'password' })
  @IsString()
  @Length(1, PASSWORD_MAX_LENGTH)
  password!: string;
}
