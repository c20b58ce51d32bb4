import type { Server } from 'node:http';

export interface ServerTimeouts {
  /** Time to receive a request's headers. */
  headersTimeoutMs: number;
  /** Time to receive a whole request (headers and body); the answer may take longer. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveTimeoutMs: number;
}

/** Short enough that a client which never finishes its request cannot hold a socket for minutes (Node: 300 s). */
export const SERVER_TIMEOUTS: Readonly<ServerTimeouts> = {
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
};

/** Sets the request timeouts of a node:http server (the defaults, or the values given). */
export function applyServerTimeouts(server: Server, overrides: Partial<ServerTimeouts> = {}): void {
  const timeouts = { ...SERVER_TIMEOUTS, ...overrides };
  server.headersTimeout = timeouts.headersTimeoutMs;
  server.requestTimeout = timeouts.requestTimeoutMs;
  server.keepAliveTimeout = timeouts.keepAliveTimeoutMs;
}

/** The largest request body any Apex server reads (REST bodies, MCP messages); reading stops past it. */
export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;
