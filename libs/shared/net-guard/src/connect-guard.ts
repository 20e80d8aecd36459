import type { LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { isBlockedAddress } from './blocked-address';
import { isAllowedHost, isLocalhostName, normalizeHost } from './host';
import { resolveAll, type Resolve } from './resolve';

export const BLOCKED_ADDRESS = 'ERR_WEBHOOK_BLOCKED_ADDRESS';

/**
 * A connection refused by the guard. The message names the host the merchant configured but not
 * the address it resolved to, which stays on `address` for logs.
 */
export class BlockedAddressError extends Error {
  readonly code = BLOCKED_ADDRESS;

  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(
      host === address
        ? `blocked: ${host} is a private, loopback or link-local address`
        : `blocked: ${host} resolves to a private, loopback or link-local address`,
    );
    this.name = 'BlockedAddressError';
  }
}

/**
 * The check for a host Node will not resolve. Node connects to an IP literal directly, without
 * calling `lookup`, so the sender calls this first; `localhost` names are refused here too.
 * Other names pass: `guardedLookup` checks what they resolve to, at the moment of connecting.
 */
export function checkConnectTarget(host: string, allowedHosts: readonly string[]): void {
  const name = normalizeHost(host);
  if (isAllowedHost(name, allowedHosts)) return;
  if (isLocalhostName(name)) throw new BlockedAddressError(name, name);
  if (isIP(name) !== 0 && isBlockedAddress(name)) throw new BlockedAddressError(name, name);
}

/**
 * A `lookup` for `https.request`, `https.Agent` or `tls.connect` (CONTRACT 9, connect time): it
 * resolves the name, refuses the connection when any answer is a blocked address (as registration
 * does), and hands the socket exactly the addresses it checked. The socket never asks DNS again,
 * so a name that answers a public address first and 127.0.0.1 next cannot slip between check and
 * connect. Hosts in `allowedHosts` resolve unchecked.
 */
export function guardedLookup(
  allowedHosts: readonly string[],
  resolve: Resolve = resolveAll,
): LookupFunction {
  return (hostname, options, callback) => {
    checkedAddresses(hostname, options.family, allowedHosts, resolve).then(
      (entries) => {
        if (options.all) callback(null, entries);
        else callback(null, entries[0].address, entries[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

async function checkedAddresses(
  hostname: string,
  family: number | string | undefined,
  allowedHosts: readonly string[],
  resolve: Resolve,
): Promise<LookupAddress[]> {
  const name = normalizeHost(hostname);
  const allowed = isAllowedHost(name, allowedHosts);
  if (!allowed && isLocalhostName(name)) throw new BlockedAddressError(name, name);
  const addresses = await resolve(hostname);
  if (!allowed) {
    const blocked = addresses.find(isBlockedAddress);
    if (blocked !== undefined) throw new BlockedAddressError(name, blocked);
  }
  const wanted = familyNumber(family);
  const entries = addresses
    .map((address) => ({ address, family: isIP(address) }))
    .filter((entry) => entry.family !== 0 && (wanted === 0 || entry.family === wanted));
  if (entries.length === 0) {
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
      code: 'ENOTFOUND',
      hostname,
    });
  }
  return entries;
}

function familyNumber(family: number | string | undefined): number {
  if (family === 4 || family === 'IPv4') return 4;
  if (family === 6 || family === 'IPv6') return 6;
  return 0;
}
