import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApexError, invalidArgument } from '@apex/errors';
import type { McpHttpHandler } from '@apex/mcp';
import { catalogOf, loggableInput, runOperation, type AnyOperation, type OperationContext } from '@apex/operations';
import { applyCors, applyServerTimeouts, assertSafeBind, checkBearerToken, refusalOf, type CorsPolicy } from '@apex/serve-security';
import { DEFAULT_BODY_LIMIT_BYTES, readJsonObjectBody } from './body';
import { createDashboardFiles } from './dashboard';
import { queryWithCurrentNames, withCurrentNames } from './deprecated-fields';
import { renderDocsPage } from './docs-page';
import { inputFromQuery, rejectUnknownFields } from './input';
import { createRestLogger, type Logger } from './logging';
import { mediaRoutesOf, runMediaRoute, type MediaRoute } from './media';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi';
import { HttpProblem, problemFrom, problemHeaders, sendProblem } from './problem';
import { sendJson, sendText } from './respond';
import { Router } from './router';
import { DEVICE_INPUT_FIELD, DEVICE_PATH_PARAM, REST_ROUTES, TASK_ROUTES, type RestRoute } from './routes';
import { sendScreenshot } from './screenshot';

/** A Streamable HTTP MCP handler, as @apex/mcp builds it; mounted at /mcp behind the same auth. */
export type { McpHttpHandler };

export interface RestServerOptions {
  /** Bearer token (APEX_TOKEN). When set, every route but /healthz requires it. */
  token?: string;
  /** Default bind address of `listen`; 127.0.0.1 unless given. */
  host?: string;
  /** Largest accepted request body (default 1 MiB). */
  bodyLimitBytes?: number;
  logger?: Logger;
  mcpHandler?: McpHttpHandler;
  /** The catalog to serve (default: the device operations, plus the task operations when `ctx.tasks` is set). */
  operations?: readonly AnyOperation[];
  /** Browser origins allowed besides loopback ones. */
  allowedOrigins?: string[];
  /** Host header values allowed besides loopback names (only checked when no token is set). */
  allowedHosts?: readonly string[];
  /**
   * The directory of the built dashboard (handed in by the app that knows where it is built): served at `/`
   * and `/ui/…`. When it holds no index.html, `/` says how to build it. Unset: `/` redirects to /docs.
   */
  dashboardDir?: string;
}

export interface RestServer {
  server: Server;
  /** Ends the long-lived answers (screen streams), so that a shutdown does not wait for them. */
  endStreams(): void;
  /** Binds (default 127.0.0.1, port 0 = any free port); refuses a non-loopback host without a token. */
  listen(port?: number, host?: string): Promise<{ url: string; port: number; host: string }>;
  close(): Promise<void>;
}

export const DEFAULT_HOST = '127.0.0.1';

/** What a trusted page may do: call any route and /mcp, and read the screenshot size and the auth challenge. */
const CORS: CorsPolicy = {
  methods: ['GET', 'POST'],
  allowHeaders: ['Authorization', 'Content-Type', 'Accept', 'Mcp-Protocol-Version', 'Mcp-Session-Id'],
  exposeHeaders: ['X-Image-Width', 'X-Image-Height', 'X-Pixels-Per-Point', 'WWW-Authenticate', 'Allow'],
};

function unauthorized(): ApexError {
  return new ApexError('unauthorized', 'A valid bearer token is required.', {
    hint: 'Send the header Authorization: Bearer <APEX_TOKEN>.',
  });
}

/** What the one log line of a request says besides method, path, status and time. */
interface RequestLog {
  requestId: number;
  operation?: string;
  code?: string;
}

export function createRestServer(ctx: OperationContext, options: RestServerOptions = {}): RestServer {
  const logger = options.logger ?? createRestLogger();
  const bodyLimit = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const operations = new Map((options.operations ?? catalogOf(ctx)).map((op) => [op.name, op]));
  const routes = [...REST_ROUTES, ...TASK_ROUTES].filter((route) => operations.has(route.operation));
  const media = mediaRoutesOf(ctx);
  const router = new Router<RestRoute | MediaRoute>([...routes, ...media]);
  const closing = new AbortController();
  let openApi: OpenApiDocument | undefined;
  const openApiDocument = () =>
    (openApi ??= buildOpenApiDocument(routes, operations, { auth: Boolean(options.token), mcp: Boolean(options.mcpHandler), media, flowSchema: ctx.flowSchema !== undefined }));
  let docsPage: string | undefined;
  let nextRequestId = 1;
  const dashboard = options.dashboardDir === undefined ? undefined : createDashboardFiles(options.dashboardDir);

  async function runRoute(req: IncomingMessage, res: ServerResponse, url: URL, log: RequestLog): Promise<void> {
    const { route, params } = router.match(req.method ?? 'GET', url.pathname);
    if ('media' in route) {
      log.operation = route.media;
      await runMediaRoute(route, {
        ctx,
        res,
        params,
        serverClosing: closing.signal,
        onStreamError: (error) => logger.warn({ requestId: log.requestId, err: error }, 'the screen stream ended with an error'),
      });
      return;
    }
    const operation = operations.get(route.operation) as AnyOperation;
    log.operation = operation.name;
    const pathField = route.pathField ?? DEVICE_INPUT_FIELD;
    const fromPath = DEVICE_PATH_PARAM in params ? [pathField] : [];
    let input: Record<string, unknown>;
    if (route.method === 'GET') {
      input = inputFromQuery(queryWithCurrentNames(url.searchParams, operation.input), operation.input, fromPath);
    } else {
      if ([...url.searchParams.keys()].length > 0) {
        throw invalidArgument(`${route.method} ${route.path} takes its input in the JSON body, not the query string.`, [
          ...new Set(url.searchParams.keys()),
        ].map((name) => ({ path: name, message: 'belongs in the JSON body' })));
      }
      input = withCurrentNames(await readJsonObjectBody(req, bodyLimit), operation.input);
      rejectUnknownFields(input, operation.input, fromPath, 'body');
    }
    if (DEVICE_PATH_PARAM in params) input[pathField] = params[DEVICE_PATH_PARAM];
    logger.debug({ operation: operation.name, input: loggableInput(operation, input) }, 'operation');
    const result = await runOperation(ctx, operation, input, [...operations.values()], { signal: clientGone(res) });
    if (route.responder === 'image') sendScreenshot(req, res, result);
    else sendJson(res, route.successStatus ?? 200, result.output);
  }

  async function handle(req: IncomingMessage, res: ServerResponse, log: RequestLog): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://apex.invalid');
    } catch {
      throw invalidArgument('The request target is not a valid URL.');
    }
    const method = req.method ?? 'GET';
    if (url.pathname === '/healthz' && (method === 'GET' || method === 'HEAD')) {
      sendJson(res, 200, { status: 'ok' });
      return;
    }
    // Without a token, only loopback Host names are served (DNS rebinding); a token guards any name.
    const refusal = refusalOf(req, { allowedOrigins: options.allowedOrigins, allowedHosts: options.allowedHosts, anyHost: Boolean(options.token) });
    if (refusal) throw new HttpProblem(refusal.reason === 'origin' ? 'forbidden_origin' : 'forbidden_host', refusal.message, {}, refusal.hint);
    // A preflight carries no credentials: it is answered before the token check.
    if (applyCors(req, res, CORS, options.allowedOrigins)) return;
    // The page's files are public; every API call they make carries the token.
    if (dashboard && (await dashboard.handle(req, res, url.pathname))) return;
    if (!checkBearerToken(req, options.token)) throw unauthorized();

    if (url.pathname === '/mcp' && options.mcpHandler) {
      log.operation = 'mcp';
      await options.mcpHandler(req, res);
      return;
    }
    if (method === 'GET' && url.pathname === '/openapi.json') {
      sendJson(res, 200, openApiDocument());
      return;
    }
    if (method === 'GET' && url.pathname === '/flows/schema' && ctx.flowSchema) {
      sendJson(res, 200, ctx.flowSchema);
      return;
    }
    if (method === 'GET' && url.pathname === '/docs') {
      docsPage ??= renderDocsPage(openApiDocument());
      sendText(res, 200, 'text/html; charset=utf-8', docsPage);
      return;
    }
    if (method === 'GET' && url.pathname === '/') {
      res.writeHead(302, { Location: '/docs', 'Content-Length': 0 });
      res.end();
      return;
    }
    await runRoute(req, res, url, log);
  }

  const server = createServer((req, res) => {
    const started = process.hrtime.bigint();
    const log: RequestLog = { requestId: nextRequestId++ };
    const path = (req.url ?? '').split('?')[0];
    res.on('finish', () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info({ ...log, method: req.method, path, status: res.statusCode, durationMs }, 'request');
    });
    handle(req, res, log).catch((error: unknown) => {
      const problem = problemFrom(error, path);
      log.code = problem.code;
      if (problem.status >= 500) logger.error({ requestId: log.requestId, err: error }, 'request failed');
      sendProblem(res, problem, problemHeaders(error));
    });
  });
  applyServerTimeouts(server);

  return {
    server,
    endStreams: () => closing.abort(),
    async listen(port = 0, host = options.host ?? DEFAULT_HOST) {
      assertSafeBind(host, options.token);
      return new Promise<{ url: string; port: number; host: string }>((resolve, reject) => {
        const onError = (error: Error) => reject(error);
        server.once('error', onError);
        server.listen(port, host, () => {
          server.off('error', onError);
          const address = server.address() as AddressInfo;
          const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
          resolve({ url: `http://${shownHost}:${address.port}`, port: address.port, host: address.address });
        });
      });
    },
    close() {
      closing.abort();
      return new Promise((resolve) => {
        if (!server.listening) {
          resolve();
          return;
        }
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** Aborts when the client goes away before its answer is sent: what it queued on a device is withdrawn. */
function clientGone(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}
