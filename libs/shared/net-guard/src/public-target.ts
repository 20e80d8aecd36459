import { isIP } from 'node:net';
import { validationError } from '@xaalis/kernel';
import { isBlockedAddress } from './blocked-address';
import { isAllowedHost, isLocalhostName, normalizeHost } from './host';
import { resolveAll, type Resolve } from './resolve';

const PRIVATE_ISSUE = 'must not point to a private, loopback or link-local address';

/**
 * CONTRACT 9, at registration: an `https://` URL without credentials whose host resolves only to
 * public addresses, unless the host is in WEBHOOK_ALLOWED_HOSTS. The URL is read by the WHATWG
 * parser, the same one the sender uses, so `https://2130706433/`, `https://0x7f.1/`,
 * `https://0177.0.0.1/` and `https://127.1/` are all seen as 127.0.0.1 here too. A name that does
 * not resolve today is accepted: the sender checks again at connect time, where it matters.
 */
export async function assertPublicWebhookTarget(
  url: string,
  allowedHosts: readonly string[],
  resolve: Resolve = resolveAll,
  field = 'webhook_url',
): Promise<void> {
  const refuse = (issue: string, message = 'This webhook URL cannot be used.') =>
    validationError([{ field, issue }], message);

  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw refuse('must be an absolute https:// URL');
  }
  if (target.protocol !== 'https:') throw refuse('must use https://');
  // Credentials would be stored and shown to every dashboard member, and `user@host` hides the host.
  if (target.username !== '' || target.password !== '')
    throw refuse('must not contain credentials');

  const host = normalizeHost(target.hostname);
  if (isAllowedHost(host, allowedHosts)) return;
  if (await pointsToBlockedAddress(host, resolve)) {
    throw refuse(PRIVATE_ISSUE, 'This webhook URL points to a private network.');
  }
}

async function pointsToBlockedAddress(host: string, resolve: Resolve): Promise<boolean> {
  if (isLocalhostName(host)) return true;
  if (isIP(host) !== 0) return isBlockedAddress(host);
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    return false;
  }
  return addresses.some(isBlockedAddress);
}
