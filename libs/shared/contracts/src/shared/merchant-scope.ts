import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { LIST_CURSOR_MAX_LENGTH, MAX_LIST_LIMIT, MODES, type Mode } from '@xaalis/kernel';
import { idPattern } from './formats';

/** Whose data, in which mode: every merchant-facing request of every context starts with it. */
export class MerchantScope {
  @Matches(idPattern('mer'), { message: 'merchant_id must be a merchant id (mer_…)' })
  merchant_id!: string;

  @IsIn(MODES)
  mode!: Mode;
}

/** CONTRACT 4 paging of one of a merchant's lists, in one mode. */
export class ListRequest extends MerchantScope {
  @IsInt()
  @Min(1)
  @Max(MAX_LIST_LIMIT)
  limit!: number;

  @IsOptional()
  @IsString()
  @MaxLength(LIST_CURSOR_MAX_LENGTH)
  starting_after?: string;
}
