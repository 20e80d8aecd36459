import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, ValidateIf } from 'class-validator';

/**
 * Spec 4.2: `POST /v1/subscriptions/{id}/cancel`. An empty body (or none: the pipe makes it an
 * empty DTO) cancels now; `createCancelMessage` applies that default. Null is refused: it would
 * say neither.
 */
export class CancelSubscriptionDto {
  @ApiPropertyOptional({
    type: 'boolean',
    description:
      'true: no invoice after the current one, canceled at the end of the period; false or absent: canceled now',
  })
  @ValidateIf((_, value: unknown) => value !== undefined)
  @IsBoolean()
  at_period_end?: boolean;
}
