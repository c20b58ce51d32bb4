import { BlockList, isIP } from 'node:net';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * Loopback names and addresses: localhost and *.localhost, 127.0.0.0/8, ::1 and IPv4-mapped 127.x
 * (brackets and one trailing dot allowed, as in URLs and Host headers).
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  const family = isIP(bare);
  return family !== 0 && LOOPBACK.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

/** A `Host` header's name without the port; undefined unless it is a plain name, an IPv4 or a bracketed IPv6. */
export function hostnameOfHostHeader(header: string): string | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9._~-]+)(?::\d{1,5})?$/i.exec(header);
  return match?.[1];
}
