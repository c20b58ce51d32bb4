import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { ApexError } from '@apex/errors';

// Bearer and Origin checks are shared with the MCP transport: one implementation for both faces.
export { checkBearerToken, isAllowedOrigin } from '@apex/mcp';

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
