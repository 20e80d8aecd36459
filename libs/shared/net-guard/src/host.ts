import { isIP } from 'node:net';

/**
 * One spelling per host, so allow-list entries and URL hosts compare equal: lower case, no IPv6
 * brackets, no trailing root dot (`localhost.` is `localhost`), IPv6 in its canonical short form.
 */
export function normalizeHost(host: string): string {
  const bare = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.+$/, '');
  return isIP(bare) === 6 ? canonicalIpv6(bare) : bare;
}

function canonicalIpv6(address: string): string {
  try {
    return new URL(`https://[${address}]/`).hostname.slice(1, -1);
  } catch {
    // A zone id (`fe80::1%eth0`) is valid for isIP but not in a URL; keep it as written.
    return address;
  }
}

export function isAllowedHost(host: string, allowedHosts: readonly string[]): boolean {
  const name = normalizeHost(host);
  return name !== '' && allowedHosts.some((allowed) => normalizeHost(allowed) === name);
}

/**
 * RFC 6761: `localhost` and every name under it mean this machine, whatever DNS says, and the
 * resolver here does not even answer for `localhost.` or `x.localhost`; so these are refused by
 * name rather than trusted to fail resolution.
 */
export function isLocalhostName(host: string): boolean {
  const name = normalizeHost(host);
  return name === 'localhost' || name.endsWith('.localhost');
}
