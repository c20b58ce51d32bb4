import type { IncomingMessage } from 'node:http';
import { hostnameOfHostHeader, isLoopbackHost } from './loopback';

/** Who may call a server, besides clients on this machine. */
export interface RequestPolicy {
  /** Browser origins allowed besides loopback ones (exact `scheme://host[:port]`). */
  allowedOrigins?: readonly string[];
  /** `Host` header values allowed besides loopback names. */
  allowedHosts?: readonly string[];
  /** Skips the Host check: the server is guarded otherwise (a bearer token, or remote use allowed on purpose). */
  anyHost?: boolean;
}

export interface Refusal {
  reason: 'origin' | 'host';
  message: string;
  hint: string;
}

/** Client text shown in a refusal is cut, so a huge header never travels back whole. */
const MAX_SHOWN = 100;

function shown(value: string): string {
  return value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN)}…` : value;
}

/**
 * A browser page on a foreign site always sends its `Origin`. Requests without one (command-line and native
 * clients) and from loopback origins pass; any other origin must be listed. The opaque origin "null" is refused.
 */
export function isAllowedOrigin(req: IncomingMessage, allowed: readonly string[] = []): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  return isTrustedOrigin(origin, allowed);
}

/** A loopback `http(s)` origin, or one listed in `allowed`. */
export function isTrustedOrigin(origin: string, allowed: readonly string[] = []): boolean {
  if (allowed.includes(origin)) return true;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackHost(url.hostname);
  } catch {
    return false;
  }
}

/**
 * A DNS-rebinding page reaches 127.0.0.1 under its own name, which shows in `Host`: only loopback names (or
 * listed values) pass.
 */
export function isAllowedHost(req: IncomingMessage, allowed: readonly string[] = []): boolean {
  const host = req.headers.host;
  if (!host) return false;
  if (allowed.some((entry) => entry.toLowerCase() === host.toLowerCase())) return true;
  const hostname = hostnameOfHostHeader(host);
  return hostname !== undefined && isLoopbackHost(hostname);
}

/** Why a request must be refused (foreign Origin, or a Host that is not this machine), or undefined. */
export function refusalOf(req: IncomingMessage, policy: RequestPolicy = {}): Refusal | undefined {
  if (!isAllowedOrigin(req, policy.allowedOrigins)) {
    return {
      reason: 'origin',
      message: `Requests from the origin ${shown(String(req.headers.origin))} are not allowed.`,
      hint: 'Only pages from loopback origins (localhost, 127.0.0.1) and origins listed in the configuration are served.',
    };
  }
  if (!policy.anyHost && !isAllowedHost(req, policy.allowedHosts)) {
    return {
      reason: 'host',
      message: `Requests for the host ${shown(req.headers.host ?? '(none)')} are not allowed.`,
      hint: 'Address the server as 127.0.0.1 or localhost.',
    };
  }
  return undefined;
}
