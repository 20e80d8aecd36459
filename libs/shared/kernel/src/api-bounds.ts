/**
 * Bounds of the API that are not a payment's, shared by the gateway's DTOs and the bus messages
 * so that the edge and the bus hold to one definition.
 */

/** The longest URL accepted anywhere (return URLs, webhook endpoints, the account's URL). */
export const URL_MAX_LENGTH = 2048;

/** An idempotency key, where one is sent: 1 to 255 characters (spec 8). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/**
 * Metadata (spec 4.1): string values of at most 500 characters; keys are bounded too (at most 50,
 * each 1 to 40 characters), so a client cannot store arbitrary documents in it.
 */
export const METADATA_MAX_KEYS = 50;
export const METADATA_KEY_MAX_LENGTH = 40;
export const METADATA_VALUE_MAX_LENGTH = 500;

/** CONTRACT 4: the largest page of a list, and the longest cursor (`starting_after`). */
export const MAX_LIST_LIMIT = 100;
export const LIST_CURSOR_MAX_LENGTH = 255;
