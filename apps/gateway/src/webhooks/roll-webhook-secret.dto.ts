import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, Max, Min, ValidateIf } from 'class-validator';
import {
  DEFAULT_WEBHOOK_SECRET_OVERLAP_HOURS,
  MAX_WEBHOOK_SECRET_OVERLAP_HOURS,
} from '@xaalis/identity-domain';

export class RollWebhookSecretDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_WEBHOOK_SECRET_OVERLAP_HOURS,
    // No `default`: generated clients would make the field required (openapi-typescript does).
    description: `Hours the replaced secret keeps signing beside the new one (two \`v1\` values), ${DEFAULT_WEBHOOK_SECRET_OVERLAP_HOURS} by default; 0 stops it at once.`,
  })
  // Absent means the default; null is refused rather than read as 0 or 24 (a secret is at stake).
  @ValidateIf((_, value) => value !== undefined)
  @IsInt()
  @Min(0)
  @Max(MAX_WEBHOOK_SECRET_OVERLAP_HOURS)
  overlap_hours?: number;
}
