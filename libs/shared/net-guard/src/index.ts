export { isBlockedAddress } from './blocked-address';
export { parseIp, type IpBytes } from './ip-address';
export { normalizeHost, isAllowedHost, isLocalhostName } from './host';
export { resolveAll, type Resolve } from './resolve';
export { assertPublicWebhookTarget } from './public-target';
export {
  BLOCKED_ADDRESS,
  BlockedAddressError,
  checkConnectTarget,
  guardedLookup,
} from './connect-guard';
