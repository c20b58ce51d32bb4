import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** Required on the first HTTP request, not at start-up: `apex mcp` (stdio) never needs it (~40 ms with its HTTP server). */
function httpTransportClass(): typeof StreamableHTTPServerTransport {
  return (require('@modelcontextprotocol/sdk/server/streamableHttp.js') as typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js')).StreamableHTTPServerTransport;
}
import { resolveToolsets, splitToolsetList, TOOLSETS, type OperationContext, type Toolset } from '@apex/capability';
import { isApexError } from '@apex/errors';
import { applyCors, checkBearerToken, MAX_REQUEST_BODY_BYTES, readBoundedBody, refusalOf, type CorsPolicy } from '@apex/serve-security';
import type { McpLogger } from './logger';
import { createMcpServer, type McpServerOptions } from './server';

export interface McpHttpOptions extends McpServerOptions {
  /** When set, every request needs `Authorization: Bearer <token>` (401 otherwise). */
  token?: string;
  /** Browser origins allowed besides loopback ones (`scheme://host[:port]`). */
  allowedOrigins?: string[];
  /** `Host` values allowed besides loopback names (checked only when no token is set). */
  allowedHosts?: readonly string[];
  logger?: McpLogger;
}

/** What a trusted page may send to the endpoint, and read from its answers. */
const CORS: CorsPolicy = {
  methods: ['GET', 'POST', 'DELETE'],
  allowHeaders: ['Authorization', 'Content-Type', 'Accept', 'Mcp-Protocol-Version', 'Mcp-Session-Id', 'Last-Event-ID'],
  exposeHeaders: ['WWW-Authenticate', 'Allow', 'Mcp-Session-Id'],
};

/**
 * A JSON-RPC batch is answered in one piece, so every result of one POST is held until the last is done:
 * a few tool calls (a few screenshots) per POST at most. A client batching more gets an error for the rest.
 */
export const MAX_TOOL_CALLS_PER_POST = 4;

/**
 * JSON-RPC messages of any kind in one POST (a batch): each answer is held in memory until all are, and some
 * answers are large (tools/list is tens of KB), so a small body must not buy a huge response.
 */
export const MAX_MESSAGES_PER_POST = 10;

export type McpHttpHandler = (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) => Promise<void>;

function sendJsonRpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/**
 * The Streamable HTTP transport, mountable at any path (apps/mcp-server serves it at `/mcp`, the REST server
 * mounts it too). Stateless: every POST gets a fresh server and transport, so any number of clients can call
 * at once with nothing to track, leak or hijack — device state lives in the hub, not in an MCP session, and
 * the tools never push server-initiated messages, so a session would hold nothing. Hence no `mcp-session-id`,
 * and GET (server stream) / DELETE (session end) answer 405.
 */
export function createMcpHttpHandler<Ctx extends OperationContext>(ctx: Ctx, options: McpHttpOptions = {}): McpHttpHandler {
  const endpoint = createMcpEndpoint(ctx, options);
  return async (req, res, parsedBody) => {
    // Without a token, only loopback Host names are served (DNS rebinding); a token guards any name.
    const refusal = refusalOf(req, { allowedOrigins: options.allowedOrigins, allowedHosts: options.allowedHosts, anyHost: Boolean(options.token) });
    if (refusal) {
      options.logger?.warn({ reason: refusal.reason }, 'mcp request refused');
      sendJsonRpcError(res, 403, -32000, `Forbidden: ${refusal.message} ${refusal.hint}`);
      return;
    }
    // A preflight carries no credentials: it is answered before the token check.
    if (applyCors(req, res, CORS, options.allowedOrigins)) return;
    if (!checkBearerToken(req, options.token)) {
      sendJsonRpcError(res, 401, -32001, 'unauthorized: send Authorization: Bearer <APEX_TOKEN>.', {
        'www-authenticate': 'Bearer realm="apex"',
      });
      return;
    }
    await endpoint(req, res, parsedBody);
  };
}

/**
 * The endpoint without its guard, for a server that already checked Host, Origin, CORS and the bearer token
 * for every request (the REST server mounts it at /mcp behind its own checks): POST only, the body read up to
 * MAX_REQUEST_BODY_BYTES, at most MAX_MESSAGES_PER_POST messages, then the SDK's transport.
 */
export function createMcpEndpoint<Ctx extends OperationContext>(ctx: Ctx, options: McpServerOptions = {}): McpHttpHandler {
  return async (req, res, parsedBody) => {
    if (req.method !== 'POST') {
      sendJsonRpcError(res, 405, -32000, 'Method not allowed: this stateless MCP endpoint accepts POST only.', { allow: 'POST' });
      return;
    }
    const body = parsedBody ?? (isJson(req) ? await readJsonBody(req, res) : undefined);
    if (body === REFUSED) return;
    if (Array.isArray(body) && body.length > MAX_MESSAGES_PER_POST) {
      sendJsonRpcError(res, 400, -32600, `Invalid Request: one POST carries at most ${MAX_MESSAGES_PER_POST} JSON-RPC messages, this one ${body.length}; send the others in further POSTs.`);
      return;
    }
    const toolsets = requestedToolsets(req, options.toolsets);
    if ('message' in toolsets) {
      sendJsonRpcError(res, 400, -32602, toolsets.message);
      return;
    }
    // Stateless: a session lasts one POST, so enable_toolset could not last; `?toolsets=` chooses per client.
    const server = createMcpServer(ctx, {
      ...options,
      toolsets,
      dynamicToolsets: false,
      toolsetsHint: (toolset) => `Add ?toolsets=default,${toolset} to this endpoint's URL (or start Apex with --toolsets default,${toolset}).`,
      maxToolCalls: MAX_TOOL_CALLS_PER_POST,
    });
    const transport = new (httpTransportClass())({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: MAX_REQUEST_BODY_BYTES,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    } catch (error) {
      options.logger?.warn({ error: error instanceof Error ? error.message : String(error) }, 'mcp http request failed');
      sendJsonRpcError(res, 500, -32603, 'Internal error.');
    }
  };
}

const REFUSED = Symbol('refused');

/**
 * The toolsets one request is served with: the URL's `?toolsets=a,b` (names, `default`, `all`) when given,
 * else the server's; an `{message}` naming the valid ones when the URL names an unknown one.
 */
function requestedToolsets(req: IncomingMessage, served: readonly Toolset[] = TOOLSETS): readonly Toolset[] | { message: string } {
  let asked: string | null;
  try {
    asked = new URL(req.url ?? '/', 'http://localhost').searchParams.get('toolsets');
  } catch {
    asked = null;
  }
  if (asked === null) return served;
  try {
    return resolveToolsets(splitToolsetList(asked), '?toolsets');
  } catch (error) {
    if (isApexError(error)) return { message: `Invalid params: ${error.message}` };
    throw error;
  }
}

function isJson(req: IncomingMessage): boolean {
  return /^application\/json\b/i.test(req.headers['content-type'] ?? '');
}

/** The body as JSON, read up to MAX_REQUEST_BODY_BYTES; REFUSED once a JSON-RPC error is sent for it. */
async function readJsonBody(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
  const read = await readBoundedBody(req, MAX_REQUEST_BODY_BYTES);
  if (read.kind === 'too_large') {
    sendJsonRpcError(res, 413, -32000, `Payload too large: a request body is at most ${MAX_REQUEST_BODY_BYTES} bytes.`, { connection: 'close' });
    return REFUSED;
  }
  if (read.kind === 'unreadable') {
    sendJsonRpcError(res, 400, -32700, 'Parse error: the request body could not be read.');
    return REFUSED;
  }
  try {
    return JSON.parse(read.bytes.toString('utf8')) as unknown;
  } catch {
    sendJsonRpcError(res, 400, -32700, 'Parse error: Invalid JSON');
    return REFUSED;
  }
}
