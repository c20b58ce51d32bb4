import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OperationContext } from '@apex/operations';
import { createMcpHttpHandler, type McpHttpOptions } from './http';

export interface McpHttpServerOptions extends McpHttpOptions {
  /** Default 3001; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. Any non-loopback address requires `token`. */
  host?: string;
  /** Where the endpoint lives. Default `/mcp`. */
  path?: string;
}

export interface McpHttpServer {
  /** The endpoint URL, e.g. http://127.0.0.1:3001/mcp. */
  url: string;
  server: HttpServer;
  close(): Promise<void>;
}

export const DEFAULT_MCP_PORT = 3001;
const LOOPBACK_BIND = new Set(['127.0.0.1', 'localhost', '::1']);

/** Refuses to expose the devices beyond this machine without a bearer token. */
export function assertSafeBind(host: string, token: string | undefined): void {
  if (!LOOPBACK_BIND.has(host) && !/^127(\.\d{1,3}){3}$/.test(host) && !token) {
    throw new Error(`refusing to listen on ${host} without APEX_TOKEN: set a token to serve beyond this machine.`);
  }
}

/** A standalone HTTP server with the MCP endpoint at `path` and a `/healthz` probe; everything else is 404. */
export async function startMcpHttpServer<Ctx extends OperationContext>(ctx: Ctx, options: McpHttpServerOptions = {}): Promise<McpHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const endpoint = options.path ?? '/mcp';
  assertSafeBind(host, options.token);
  const handle = createMcpHttpHandler(ctx, options);
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === endpoint) {
      void handle(req, res);
    } else if (path === '/healthz' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    } else {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `Not found; the MCP endpoint is ${endpoint}.` }));
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_MCP_PORT, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${endpoint}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
