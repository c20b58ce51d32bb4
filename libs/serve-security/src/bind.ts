import { ApexError } from '@apex/errors';
import { isLoopbackHost } from './loopback';

/**
 * A server with bearer auth refuses to listen beyond this machine without a token: anyone who can reach the
 * port could otherwise operate the devices.
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
 * A server without auth (the virtual iPhone) listens beyond this machine only when told so explicitly
 * (`--allow-remote`, `allowRemote: true`).
 */
export function assertSafeOpenBind(host: string, allowRemote: boolean | undefined, what: string): void {
  if (isLoopbackHost(host) || allowRemote) return;
  throw new ApexError(
    'invalid_argument',
    `Refusing to listen on ${host}: ${what} has no authentication, so anyone who can reach it could drive it.`,
    { hint: 'Pass --allow-remote (allowRemote: true) to serve beyond this machine on purpose, or bind to 127.0.0.1.' },
  );
}
