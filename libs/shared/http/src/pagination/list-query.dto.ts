import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { LIST_CURSOR_MAX_LENGTH, MAX_LIST_LIMIT } from '@xaalis/kernel';

export const DEFAULT_LIST_LIMIT = 20;
export { MAX_LIST_LIMIT };

/**
 * CONTRACT 4 query of every list endpoint; extend it with the endpoint's own filters. Query values
 * are strings, so `limit` is converted here explicitly (the global pipe converts nothing itself).
 */
export class ListQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_LIST_LIMIT,
    default: DEFAULT_LIST_LIMIT,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_LIST_LIMIT)
  limit: number = DEFAULT_LIST_LIMIT;

  @ApiPropertyOptional({ description: 'Id of the last object of the previous page.' })
  @IsOptional()
  @IsString()
  @Length(1, LIST_CURSOR_MAX_LENGTH)
  starting_after?: string;
}
