import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { MAX_GRACE_HOURS } from '@xaalis/identity-domain';

export class RollApiKeyDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_GRACE_HOURS,
    // No `default`: generated clients would make the field required (openapi-typescript does).
    description: 'Hours the old key keeps working; 0 (the default) stops it at once.',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_GRACE_HOURS)
  grace_hours?: number;
}
