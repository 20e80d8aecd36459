/**
 * Bounds of the API that are not a payment's, shared by the gateway's DTOs and the bus messages
 * so that the edge and the bus hold to one definition.
 */

/** The longest URL accepted anywhere (return URLs, webhook endpoints, the account's URL). */
export const URL_MAX_LENGTH = 2048;

/** CONTRACT 4: the largest page of a list, and the longest cursor (`starting_after`). */
export const MAX_LIST_LIMIT = 100;
export const LIST_CURSOR_MAX_LENGTH = 255;
