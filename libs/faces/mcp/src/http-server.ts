import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OperationContext } from '@apex/capability';
import { applyServerTimeouts, assertSafeBind } from '@apex/serve-security';
import { createMcpHttpHandler, type McpHttpOptions } from './http';

export interface McpHttpServerOptions extends McpHttpOptions {
  /** Default 3001; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. Any non-loopback address requires `token`; without one, only loopback Host names are served. */
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

/** The path of a request target; undefined when it is not a valid URL. */
function pathOf(target: string | undefined): string | undefined {
  try {
    return new URL(target ?? '/', 'http://localhost').pathname;
  } catch {
    return undefined;
  }
}

/** A standalone HTTP server with the MCP endpoint at `path` and a `/healthz` probe; everything else is 404. */
export async function startMcpHttpServer<Ctx extends OperationContext>(ctx: Ctx, options: McpHttpServerOptions = {}): Promise<McpHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const endpoint = options.path ?? '/mcp';
  assertSafeBind(host, options.token);
  const handle = createMcpHttpHandler(ctx, options);
  const server = createServer((req, res) => {
    const path = pathOf(req.url);
    if (path === endpoint) {
      void handle(req, res);
    } else if (path === '/healthz' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    } else {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `Not found; the MCP endpoint is ${endpoint}.` }));
    }
  });
  applyServerTimeouts(server);
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
