import { Type } from 'class-transformer';
import { IsArray, IsBoolean, ValidateNested } from 'class-validator';
import type { MessageClass } from './validate-message';

/**
 * The reply class of a list pattern (CONTRACT 4 without `object`, which the gateway adds): a
 * page of `Item`s, each validated as its own class, and whether there is more.
 */
export function ListReply<Item extends object>(item: MessageClass<Item>) {
  class Page {
    @IsArray()
    @ValidateNested({ each: true })
    @Type(() => item)
    data!: Item[];

    @IsBoolean()
    has_more!: boolean;
  }
  return Page;
}
