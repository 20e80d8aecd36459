/**
 * The address guard lives in @xaalis/net-guard, shared with the webhook sender so registration
 * (PATCH /v1/account) and connect time judge an address the same way. Re-exported so this
 * library's callers keep their imports.
 */
export { assertPublicWebhookTarget, isBlockedAddress, type Resolve } from '@xaalis/net-guard';
