/** The better-auth instance (see `createAuth`), built once per process from the pg pool. */
export const AUTH = 'XAALIS_AUTH';
