import type { Server, ServerResponse } from 'node:http';
import { ApexError } from '@apex/errors';
import { createMcpEndpoint } from '@apex/mcp';
import type { OperationContext, Toolset } from '@apex/capability';
import { assertSafeBind } from '@apex/serve-security';
import { isDashboardBuilt } from './dashboard';
import { createRestLogger } from './logging';
import { createRestServer, DEFAULT_HOST, type RestServerOptions } from './server';

export const DEFAULT_PORT = 3000;

/** How long `apex serve` lets requests in flight finish after a stop signal. */
export const DEFAULT_DRAIN_MS = 10_000;

export interface StartRestApiOptions extends RestServerOptions {
  /** Preferred port (default 3000). When it is taken another free port is used and `portNote` says so. */
  port?: number;
  /** Mount MCP's Streamable HTTP endpoint at /mcp (default true), behind the same token and origin checks. */
  mcp?: boolean;
  /** The toolsets /mcp lists (default all; a client may ask for others with `?toolsets=`). REST serves every operation. */
  mcpToolsets?: readonly Toolset[];
}

export interface RestApiHandle {
  url: string;
  docsUrl: string;
  openApiUrl: string;
  mcpUrl?: string;
  /** The dashboard's address, when a dashboard directory was given. */
  dashboardUrl?: string;
  /** Set when the dashboard directory holds no built page. */
  dashboardNote?: string;
  port: number;
  /** Set when the preferred port was taken. */
  portNote?: string;
  /**
   * Stops accepting connections at once; requests in flight get up to `drainMs` to finish (default 0), then
   * every connection is closed. Requests that arrive meanwhile on an open connection are answered and told
   * `Connection: close`.
   */
  close(options?: { drainMs?: number }): Promise<void>;
}

function isAddressInUse(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';
}

/**
 * What `apex serve` and `nx serve rest-api` share: the server on the preferred port (or a free one),
 * with the MCP handler at /mcp when given. The caller built the context (the runtime) and closes it.
 */
export async function startRestApi(ctx: OperationContext, options: StartRestApiOptions = {}): Promise<RestApiHandle> {
  const host = options.host ?? DEFAULT_HOST;
  const preferred = options.port ?? DEFAULT_PORT;
  const logger = options.logger ?? createRestLogger();
  const mcpHandler =
    options.mcpHandler ??
    (options.mcp === false
      ? undefined
      : // Unguarded: the REST server checks Host, Origin, CORS and the token once for every request, /mcp included.
        createMcpEndpoint(ctx, { logger: logger.child({ face: 'mcp' }), toolsets: options.mcpToolsets }));
  const rest = createRestServer(ctx, { ...options, host, logger, mcpHandler });
  let bound: { url: string; port: number };
  let portNote: string | undefined;
  try {
    bound = await rest.listen(preferred, host);
  } catch (error) {
    if (!isAddressInUse(error) || preferred === 0) throw error;
    bound = await rest.listen(0, host);
    portNote = `Port ${preferred} is in use; listening on port ${bound.port} instead.`;
  }
  const inFlight = trackRequests(rest.server);
  return {
    url: bound.url,
    docsUrl: `${bound.url}/docs`,
    openApiUrl: `${bound.url}/openapi.json`,
    mcpUrl: mcpHandler ? `${bound.url}/mcp` : undefined,
    ...dashboardLines(options.dashboardDir, bound.url),
    port: bound.port,
    portNote,
    close: async ({ drainMs = 0 } = {}) => {
      const closed = new Promise<void>((resolve) => rest.server.close(() => resolve()));
      inFlight.draining = true;
      rest.endStreams();
      rest.server.closeIdleConnections();
      await inFlight.settled(drainMs);
      rest.server.closeAllConnections();
      await closed;
    },
  };
}

function dashboardLines(dir: string | undefined, url: string): Pick<RestApiHandle, 'dashboardUrl' | 'dashboardNote'> {
  if (dir === undefined) return {};
  return {
    dashboardUrl: `${url}/`,
    dashboardNote: isDashboardBuilt(dir) ? undefined : `The dashboard is not built (no build in ${dir}): run \`npx nx run dashboard:build\`.`,
  };
}

/** The requests a server is answering, so that a shutdown can wait for them. */
function trackRequests(server: Server): { draining: boolean; settled(timeoutMs: number): Promise<void> } {
  const active = new Set<ServerResponse>();
  const idle: Array<() => void> = [];
  const state = {
    draining: false,
    settled(timeoutMs: number): Promise<void> {
      if (active.size === 0 || timeoutMs <= 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        idle.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
  server.on('request', (_req, res: ServerResponse) => {
    if (state.draining && !res.headersSent) res.setHeader('Connection', 'close');
    active.add(res);
    res.once('close', () => {
      active.delete(res);
      if (active.size === 0) for (const wake of idle.splice(0)) wake();
    });
  });
  return state;
}

/** The lines a main prints once the API is up. */
export function describeRestApi(handle: RestApiHandle, auth: boolean): string[] {
  return [
    ...(handle.portNote ? [handle.portNote] : []),
    ...(handle.dashboardUrl ? [`Dashboard      ${handle.dashboardUrl}`] : []),
    ...(handle.dashboardNote ? [handle.dashboardNote] : []),
    `Apex REST API  ${handle.url}`,
    `API docs       ${handle.docsUrl}`,
    `OpenAPI        ${handle.openApiUrl}`,
    ...(handle.mcpUrl ? [`MCP (HTTP)     ${handle.mcpUrl}`] : []),
    auth ? 'Auth           bearer token (APEX_TOKEN) required' : 'Auth           off (set APEX_TOKEN to require a bearer token)',
  ];
}

/** Resolves with the first SIGINT or SIGTERM; the listeners are removed afterwards (a second signal kills). */
export function waitForShutdownSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

/** `--port` as given on a command line: an integer 0..65535 (0 = any free port). */
export function parsePortOption(text: string | undefined): number {
  if (text === undefined) return DEFAULT_PORT;
  const port = Number(text);
  if (!/^\d+$/.test(text) || !Number.isInteger(port) || port > 65535) {
    throw new ApexError('invalid_argument', `--port must be a whole number from 0 to 65535, not "${text}".`);
  }
  return port;
}

/** An opened operation context and how to release it (the runtime, built by the app). */
export interface OpenedContext {
  ctx: OperationContext;
  close(): Promise<void>;
  /** The toolsets /mcp lists, when the context's configuration chose them (see StartRestApiOptions). */
  mcpToolsets?: readonly Toolset[];
  /** Hears the address the API answers on once it listens (a cluster node registers it for the others). */
  onListening?(url: string): void;
}

export interface ServeOptions extends StartRestApiOptions {
  /** Builds the context once the bind is known to be allowed (so a refused start boots no device). */
  openContext: () => Promise<OpenedContext>;
  /** Where the URLs are printed (default stdout); each call is one block of lines. */
  print?: (line: string) => void;
  /** Resolves with the signal that stops the server (default: the first SIGINT or SIGTERM). */
  stopSignal?: Promise<NodeJS.Signals>;
  /** How long requests in flight may take to finish once stopping (default 10 s). */
  drainMs?: number;
}

/**
 * The whole life of `apex serve` / `nx serve rest-api`: check the bind, open the context, start the API,
 * print its URLs, wait for SIGINT/SIGTERM, then stop accepting, let the requests in flight finish (bounded)
 * and close the context (which ends running tasks at their step boundary and releases the devices).
 */
export async function serveUntilSignal(options: ServeOptions): Promise<void> {
  const { openContext, print = (line) => process.stdout.write(`${line}\n`), stopSignal, drainMs = DEFAULT_DRAIN_MS, ...startOptions } = options;
  const host = startOptions.host ?? DEFAULT_HOST;
  assertSafeBind(host, startOptions.token);
  const opened = await openContext();
  try {
    const api = await startRestApi(opened.ctx, { ...startOptions, host, mcpToolsets: opened.mcpToolsets ?? startOptions.mcpToolsets });
    opened.onListening?.(api.url);
    // One write, so a reader of stdout never sees half of the banner.
    print(describeRestApi(api, Boolean(startOptions.token)).join('\n'));
    const signal = await (stopSignal ?? waitForShutdownSignal());
    // Listening has stopped by the time this line is out (close stops it before its first await).
    const closing = api.close({ drainMs });
    print(`Received ${signal}; shutting down.`);
    await closing;
  } finally {
    await opened.close();
  }
}
