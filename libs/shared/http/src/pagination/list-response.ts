import { DomainError, type Mode } from '@xaalis/kernel';
import type { Pool } from 'pg';

export interface ListResponse<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
}

/**
 * CONTRACT 4 list wrapper. Callers fetch `limit + 1` rows, newest first: the extra row only says
 * whether there is a next page and is not returned.
 */
export function toListResponse<Row, Item = Row>(
  rows: readonly Row[],
  limit: number,
  toItem: (row: Row) => Item = (row) => row as unknown as Item,
): ListResponse<Item> {
  return {
    object: 'list',
    data: rows.slice(0, limit).map(toItem),
    has_more: rows.length > limit,
  };
}

/** An unknown `starting_after` is a 404 (CONTRACT 4), like any id the caller cannot see. */
export function unknownCursor(startingAfter: string): DomainError {
  return new DomainError('not_found', `No such object: ${startingAfter} (starting_after).`, {
    param: 'starting_after',
  });
}

/** Returns the cursor row looked up for `starting_after`, or throws the CONTRACT 4 404. */
export function requireCursor<T>(row: T | null | undefined, startingAfter: string): T {
  if (row === null || row === undefined) throw unknownCursor(startingAfter);
  return row;
}

/** A read model's table name as the code spells it: never anything a client sent. */
const TABLE_NAME = /^[a-z_]+$/;

/**
 * CONTRACT 4 for a list of one merchant's rows in one mode: a `starting_after` that is not one of
 * them (unknown, another merchant's, the other mode's) is the 404 of `requireCursor`. Nothing to
 * check without one. `table` is the list's read-model table, whose rows carry `id`,
 * `merchant_id` and `mode`.
 */
export async function requireOwnCursor(
  db: Pick<Pool, 'query'>,
  table: string,
  owner: { merchantId: string; mode: Mode },
  startingAfter: string | undefined,
): Promise<void> {
  if (!TABLE_NAME.test(table)) throw new TypeError(`Not a table name: ${table}`);
  if (startingAfter === undefined) return;
  const { rows } = await db.query({
    name: `${table}_cursor`,
    text: `SELECT 1 FROM ${table} WHERE id = $1 AND merchant_id = $2 AND mode = $3`,
    values: [startingAfter, owner.merchantId, owner.mode],
  });
  requireCursor(rows[0], startingAfter);
}

/** A bus list reply (CONTRACT 4 without `object`, see contracts' `ListReply`) as the HTTP list. */
export function asListResponse<Item>(page: {
  data: Item[];
  has_more: boolean;
}): ListResponse<Item> {
  return { object: 'list', data: page.data, has_more: page.has_more };
}
