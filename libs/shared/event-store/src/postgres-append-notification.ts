/**
 * The NOTIFY channel appends are announced on. The payload is the position appended, then, when
 * known, a space and the JSON array of the appended streams' categories (`categoryOf`), so that a
 * reader of other streams sleeps on; a payload of the position alone wakes every reader.
 */
export const APPEND_CHANNEL = 'es_appended';

/** More categories than this in one notification (or a long payload) are not named. */
const MAX_CATEGORIES_NAMED = 32;
const MAX_PAYLOAD_LENGTH = 4_000;

export function appendNotification(position: string, categories: Iterable<string>): string {
  const named = [...categories];
  if (named.length === 0 || named.length > MAX_CATEGORIES_NAMED) return position;
  const payload = `${position} ${JSON.stringify(named)}`;
  return payload.length > MAX_PAYLOAD_LENGTH ? position : payload;
}

/** A notification's position, and the categories it names (undefined: not named, any stream). */
export function readAppendNotification(payload: string): {
  position: string;
  categories: string[] | undefined;
} {
  const space = payload.indexOf(' ');
  if (space === -1) return { position: payload, categories: undefined };
  const position = payload.slice(0, space);
  try {
    const categories: unknown = JSON.parse(payload.slice(space + 1));
    if (Array.isArray(categories) && categories.every((name) => typeof name === 'string')) {
      return { position, categories };
    }
  } catch {
    // Not ours to read: treated as naming no category.
  }
  return { position, categories: undefined };
}
