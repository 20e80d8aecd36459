import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, type TransformFnParams } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { LIST_CURSOR_MAX_LENGTH, MAX_LIST_LIMIT } from '@xaalis/kernel';

export const DEFAULT_LIST_LIMIT = 20;
export { MAX_LIST_LIMIT };

/**
 * A query value written as a decimal integer, as that number. Anything else (`1e2`, `0x10`, ` `,
 * `1.5`) stays a string, for the integer check to refuse, where `Number` would have read some of
 * them as integers.
 */
const decimalInteger = ({ value }: TransformFnParams): unknown =>
  typeof value === 'string' && /^-?\d{1,15}$/.test(value) ? Number(value) : value;

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
  @Transform(decimalInteger)
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
