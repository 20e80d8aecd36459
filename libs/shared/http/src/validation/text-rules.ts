/**
 * CONTRACT 2: what no field, path segment or query value may hold. Postgres refuses both
 * characters in text and jsonb ("unsupported Unicode escape sequence"), so a value holding one
 * would fail in storage, after the request was accepted.
 */
export const JSON_MAX_DEPTH = 32;
/**
 * No object a route takes has more than 50 members (metadata's cap); class-validator's check of
 * unknown fields grows faster than their number (100,000 of them took seconds), so an object
 * with more than this is refused before it is validated.
 */
export const JSON_MAX_MEMBERS = 1_000;
/** Ids, cursors, filters and client secrets are all shorter; a longer value names nothing. */
export const URL_VALUE_MAX_LENGTH = 255;

export const NUL_ISSUE = 'must not contain the NUL character (U+0000)';
export const SURROGATE_ISSUE = 'must not contain an unpaired UTF-16 surrogate';

/** U+0000, a high surrogate with no low one after it, or a low one with no high one before. */
const UNSTORABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why `text` cannot be stored, or undefined. */
export function unstorableTextIssue(text: string): string | undefined {
  const found = UNSTORABLE.exec(text);
  if (found === null) return undefined;
  return found[0] === '\0' ? NUL_ISSUE : SURROGATE_ISSUE;
}
