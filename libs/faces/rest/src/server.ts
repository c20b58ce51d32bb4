import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { ApexError, invalidArgument } from '@apex/errors';
import type { McpHttpHandler } from '@apex/mcp';
import { catalogOf, loggableInput, runOperation, type AnyOperation, type OperationContext } from '@apex/capability';
import {
  applyCors,
  applyServerTimeouts,
  assertSafeBind,
  checkBearerToken,
  MAX_REQUEST_BODY_BYTES,
  refusalOf,
  type CorsPolicy,
} from '@apex/serve-security';
import { createDashboardFiles } from './dashboard';
import { createExpressServer } from './express-server';
import { FORWARDED_HEADER } from './forwarder';
import { queryWithCurrentNames, withCurrentNames } from './deprecated-fields';
import { renderDocsPage } from './docs-page';
import { inputFromQuery, rejectUnknownFields } from './input';
import { jsonBodyReader } from './json-body';
import { createRestLogger, type Logger } from './logging';
import { mediaRoutesOf, runMediaRoute, type MediaRoute } from './media';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi';
import { checkedPathParam, pathParamSchema } from './path-params';
import { HttpProblem, problemFrom, problemHeaders, sendProblem } from './problem';
import { sendJson, sendText } from './respond';
import { requestTargetOf } from './request-target';
import { DEVICE_INPUT_FIELD, DEVICE_PATH_PARAM, expressPath, RECORDING_ROUTES, REST_ROUTES, TASK_ROUTES, undecodableParamOf, type RestRoute } from './routes';
import { sendScreenshot } from './screenshot';

/** The MCP endpoint mounted at /mcp (`createMcpEndpoint` of @apex/mcp): the REST server guards it like every route. */
export type { McpHttpHandler };

/** Largest accepted request body by default (1 MiB, the limit of every Apex server). */
export const DEFAULT_BODY_LIMIT_BYTES = MAX_REQUEST_BODY_BYTES;

export interface RestServerOptions {
  /** Bearer token (APEX_TOKEN). When set, every route but /healthz requires it. */
  token?: string;
  /** Default bind address of `listen`; 127.0.0.1 unless given. */
  host?: string;
  /** Largest accepted request body (default 1 MiB). */
  bodyLimitBytes?: number;
  logger?: Logger;
  /** Served at /mcp after the same Host, Origin, CORS and token checks as every route (it runs none of its own). */
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

/** The routes of one path template, by method: a known path with another method is 405 with Allow. */
interface PathRoutes {
  path: string;
  byMethod: Map<string, RestRoute | MediaRoute>;
}

function groupByPath(routes: readonly (RestRoute | MediaRoute)[]): PathRoutes[] {
  const groups = new Map<string, PathRoutes>();
  for (const route of routes) {
    const group = groups.get(route.path) ?? { path: route.path, byMethod: new Map() };
    group.byMethod.set(route.method, route);
    groups.set(route.path, group);
  }
  return [...groups.values()];
}

const paramNames = new Map<string, readonly string[]>();

/** The `{name}` parameters of a path template, read once per template. */
function paramNamesOf(template: string): readonly string[] {
  let names = paramNames.get(template);
  if (!names) {
    names = [...template.matchAll(/\{(\w+)\}/g)].map(([, name]) => name as string);
    paramNames.set(template, names);
  }
  return names;
}

/** A handler for exactly one method (Express's `get` also takes HEAD); any other falls through to 404. */
function only(method: string, handler: (req: Request, res: Response) => void): RequestHandler {
  return (req, res, next) => {
    if (req.method === method) handler(req, res);
    else next();
  };
}

export function createRestServer(ctx: OperationContext, options: RestServerOptions = {}): RestServer {
  const logger = options.logger ?? createRestLogger();
  const readJsonBody = jsonBodyReader(options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES);
  const catalog = options.operations ?? catalogOf(ctx);
  const operations = new Map(catalog.map((op) => [op.name, op]));
  const routes = [...REST_ROUTES, ...TASK_ROUTES, ...RECORDING_ROUTES].filter((route) => operations.has(route.operation));
  const media = mediaRoutesOf(ctx);
  const templates = [...routes, ...media].map((route) => route.path);
  const closing = new AbortController();
  let openApi: OpenApiDocument | undefined;
  const openApiDocument = () =>
    (openApi ??= buildOpenApiDocument(routes, operations, { auth: Boolean(options.token), mcp: Boolean(options.mcpHandler), media, flowSchema: ctx.flowSchema !== undefined }));
  let docsPage: string | undefined;
  let nextRequestId = 1;
  const dashboard = options.dashboardDir === undefined ? undefined : createDashboardFiles(options.dashboardDir);
  const logOf = (res: Response) => res.locals.log as RequestLog;

  async function runRoute(route: RestRoute | MediaRoute, req: Request, res: Response): Promise<void> {
    const log = logOf(res);
    // Every parameter of the template, an empty segment as '' (its schema says what is wrong with it).
    const params = Object.fromEntries(paramNamesOf(route.path).map((name) => [name, (req.params as Record<string, string | undefined>)[name] ?? '']));
    if ('media' in route) {
      log.operation = route.media;
      const idField = route.media === 'step-screenshot' ? operations.get('get_task') : undefined;
      params[DEVICE_PATH_PARAM] = checkedPathParam(DEVICE_PATH_PARAM, params[DEVICE_PATH_PARAM], pathParamSchema(idField, 'taskId'));
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
    const hasPathParam = route.path.includes(`{${DEVICE_PATH_PARAM}}`);
    const fromPath = hasPathParam ? [pathField] : [];
    const pathValue = hasPathParam ? checkedPathParam(DEVICE_PATH_PARAM, params[DEVICE_PATH_PARAM], pathParamSchema(operation, pathField)) : undefined;
    const query = new URLSearchParams(res.locals.search as string);
    let input: Record<string, unknown>;
    if (route.method === 'GET') {
      input = inputFromQuery(queryWithCurrentNames(query, operation.input), operation.input, fromPath);
    } else {
      if (query.size > 0) {
        throw invalidArgument(`${route.method} ${route.path} takes its input in the JSON body, not the query string.`, [
          ...new Set(query.keys()),
        ].map((name) => ({ path: name, message: 'belongs in the JSON body' })));
      }
      input = withCurrentNames(await readJsonBody(req, res), operation.input);
      rejectUnknownFields(input, operation.input, fromPath, 'body');
    }
    if (pathValue !== undefined) input[pathField] = pathValue;
    if (logger.isLevelEnabled('debug')) logger.debug({ operation: operation.name, input: loggableInput(operation, input) }, 'operation');
    // A request another node forwarded runs here or fails here: it is never sent on (see forwarder.ts).
    const forwarded = req.headers[FORWARDED_HEADER.toLowerCase()] !== undefined;
    // A device being prepared answers 503 naming the phase with Retry-After at once (wait_for_device waits on purpose):
    // a plain HTTP client sees no progress, and proxies cut requests that stay silent for minutes.
    const result = await runOperation(ctx, operation, input, catalog, { signal: clientGone(res), forwarded, deviceWaitMs: 0 });
    if (route.responder === 'image') sendScreenshot(req, res, result);
    else sendJson(res, route.successStatus ?? 200, result.output);
  }

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', false);
  // Paths match exactly as the route table writes them: /Devices and /devices/ are not /devices.
  app.set('case sensitive routing', true);
  app.set('strict routing', true);

  /** Host and Origin, CORS (a preflight is answered here), then the token: true when the request may go on. */
  const guard = (req: Request, res: Response): boolean => {
    // Without a token, only loopback Host names are served (DNS rebinding); a token guards any name.
    const refusal = refusalOf(req, { allowedOrigins: options.allowedOrigins, allowedHosts: options.allowedHosts, anyHost: Boolean(options.token) });
    if (refusal) throw new HttpProblem(refusal.reason === 'origin' ? 'forbidden_origin' : 'forbidden_host', refusal.message, {}, refusal.hint);
    // A preflight carries no credentials: it is answered before the token check.
    return !applyCors(req, res, CORS, options.allowedOrigins);
  };
  const tokenAccepted = (req: Request): boolean => {
    if (!checkBearerToken(req, options.token)) throw unauthorized();
    return true;
  };

  // The front door of every request, one layer (each layer Express walks costs every request): its log line
  // (written when its answer is done), the normalized URL, /healthz (public), then the guard, /mcp included,
  // run once: Host and Origin, CORS, the dashboard's public files, the token.
  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    const log: RequestLog = { requestId: nextRequestId++ };
    res.locals.log = log;
    const path = (req.url ?? '').split('?')[0];
    res.on('finish', () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info({ ...log, method: req.method, path, status: res.statusCode, durationMs }, 'request');
    });
    // Routes match the normalized path (dot segments resolved), as a URL reader sees it.
    const target = requestTargetOf(req.url ?? '/');
    req.url = target.pathname + target.search;
    res.locals.search = target.search;
    if (target.pathname === '/healthz' && (req.method === 'GET' || req.method === 'HEAD')) {
      sendJson(res, 200, { status: 'ok' });
      return;
    }
    if (!guard(req, res)) return;
    // The page's files are public; every API call they make carries the token.
    if (!dashboard) {
      if (tokenAccepted(req)) next();
      return;
    }
    dashboard
      .handle(req, res, target.pathname)
      .then((served) => {
        if (!served && tokenAccepted(req)) next();
      })
      .catch(next);
  });

  // The catalog's routes first (the calls clients make most): one handler per path template, which answers 405
  // with Allow for another method.
  for (const { path, byMethod } of groupByPath([...routes, ...media])) {
    const allow = [...byMethod.keys()].sort().join(', ');
    app.all(expressPath(path), async (req, res) => {
      const route = byMethod.get(req.method);
      if (!route) throw new HttpProblem('method_not_allowed', `${req.method} is not allowed on ${req.path}; use ${allow}.`, { Allow: allow });
      await runRoute(route, req, res);
    });
  }

  const mcpHandler = options.mcpHandler;
  if (mcpHandler) {
    app.all('/mcp', async (req, res) => {
      logOf(res).operation = 'mcp';
      await mcpHandler(req, res);
    });
  }
  app.all('/openapi.json', only('GET', (_req, res) => sendJson(res, 200, openApiDocument())));
  const flowSchema = ctx.flowSchema;
  if (flowSchema) app.all('/flows/schema', only('GET', (_req, res) => sendJson(res, 200, flowSchema)));
  app.all(
    '/docs',
    only('GET', (_req, res) => {
      docsPage ??= renderDocsPage(openApiDocument());
      sendText(res, 200, 'text/html; charset=utf-8', docsPage);
    }),
  );
  app.all(
    '/',
    only('GET', (_req, res) => {
      res.writeHead(302, { Location: '/docs', 'Content-Length': 0 });
      res.end();
    }),
  );

  app.use((req) => {
    throw new HttpProblem('route_not_found', `No route ${req.method} ${req.path}.`, {}, 'See GET /docs or GET /openapi.json for the routes.');
  });

  // The one error middleware: anything thrown becomes an RFC 9457 problem (never Express's HTML page).
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const path = req.originalUrl.split('?')[0];
    const thrown = error instanceof URIError ? undecodable(req.path, templates) : error;
    const problem = problemFrom(thrown, path);
    const log = res.locals.log as RequestLog | undefined;
    if (log) log.code = problem.code;
    if (problem.status >= 500) logger.error({ requestId: log?.requestId, err: error }, 'request failed');
    sendProblem(res, problem, problemHeaders(thrown));
  });

  const server = createExpressServer(app);
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

/** Express refuses a path parameter that is not valid URL encoding before any route runs: named here. */
function undecodable(pathname: string, templates: readonly string[]): ApexError {
  const name = undecodableParamOf(pathname, templates) ?? DEVICE_PATH_PARAM;
  return invalidArgument(`The path parameter ${name} is not valid URL encoding.`, [{ path: name, message: 'is not valid URL encoding' }]);
}

/** Aborts when the client goes away before its answer is sent: what it queued on a device is withdrawn. */
function clientGone(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}
