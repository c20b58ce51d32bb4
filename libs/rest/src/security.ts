import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { ApexError } from '@apex/errors';

/**
 * True when the request carries `Authorization: Bearer <token>`. Both sides are hashed first so the
 * comparison is constant-time whatever their lengths.
 */
export function hasBearerToken(req: IncomingMessage, token: string): boolean {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return false;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  if (!match) return false;
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(match[1]), digest(token));
}

export function unauthorized(): ApexError {
  return new ApexError('unauthorized', 'A valid bearer token is required.', {
    hint: 'Send the header Authorization: Bearer <APEX_TOKEN>.',
  });
}

/** Loopback names and addresses: 127.0.0.0/8, ::1, localhost. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) return bare === '::1' || bare.startsWith('::ffff:127.');
  return false;
}

/**
 * Refuses to serve beyond this machine without a token: anyone who can reach the port could otherwise
 * operate the devices.
 */
export function assertSafeBind(host: string, token: string | undefined): void {
  if (isLoopbackHost(host) || token) return;
  throw new ApexError(
    'invalid_argument',
    `Refusing to listen on ${host} without APEX_TOKEN: anyone who can reach it could operate the devices.`,
    { hint: 'Set APEX_TOKEN to a long random secret, or bind to 127.0.0.1.' },
  );
}

/**
 * Browsers send `Origin` on cross-site and on non-GET requests. A page from another site (or a DNS-rebound
 * name) must not drive a device through a browser on this machine, so only origins on a loopback host, or
 * listed explicitly, are accepted; requests without `Origin` (curl, scripts, SDKs) pass.
 */
export function isOriginAllowed(req: IncomingMessage, allowedOrigins: readonly string[] = []): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  if (allowedOrigins.includes(origin)) return true;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackHost(url.hostname);
  } catch {
    return false;
  }
}

/**
 * Without a token, a loopback server only answers requests addressed to a loopback name: a DNS-rebinding
 * page reaches 127.0.0.1 under its own name, which shows in `Host`.
 */
export function isHostAllowed(req: IncomingMessage, allowedHosts: readonly string[] = []): boolean {
  const host = req.headers.host;
  if (!host) return false;
  if (allowedHosts.includes(host)) return true;
  try {
    return isLoopbackHost(new URL(`http://${host}`).hostname);
  } catch {
    return false;
  }
}
