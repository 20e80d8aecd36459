import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsIn, IsString } from 'class-validator';
import { ALL_SCOPES } from '@xaalis/identity-domain';

export class RestrictedApiKeyDto {
  @ApiProperty({ type: [String], enum: ALL_SCOPES, example: ['payments:read', 'refunds:write'] })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(ALL_SCOPES.length)
  @IsString({ each: true })
  @IsIn(ALL_SCOPES, {
    each: true,
    message: 'each scope must be resource:read or resource:write of a known resource',
  })
  scopes!: string[];
}
