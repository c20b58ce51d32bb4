export { createRestServer, DEFAULT_HOST, type McpHttpHandler, type RestServer, type RestServerOptions } from './server';
export {
  DEFAULT_DRAIN_MS,
  DEFAULT_PORT,
  describeRestApi,
  parsePortOption,
  serveUntilSignal,
  startRestApi,
  waitForShutdownSignal,
  type OpenedContext,
  type RestApiHandle,
  type ServeOptions,
  type StartRestApiOptions,
} from './start';
export { RECORDING_ROUTES, REST_ROUTES, TASK_ROUTES, type RestRoute } from './routes';
export { MEDIA_ROUTES, STREAM_BOUNDARY, type MediaRoute } from './media';
export { buildOpenApiDocument, type OpenApiDocument } from './openapi';
export { renderDocsPage } from './docs-page';
export { HTTP_PROBLEMS, PROBLEM_TYPE_BASE, problemFrom, type Problem, type ProblemCode, type HttpProblemCode } from './problem';
export { DEFAULT_BODY_LIMIT_BYTES } from './server';
export { DEPRECATED_FIELDS } from './deprecated-fields';
export { createRestLogger, REDACTED_PATHS, type Logger } from './logging';
export { DASHBOARD_CSP, DASHBOARD_PREFIX, isDashboardBuilt } from './dashboard';
export { createRestForwarder, DEFAULT_FORWARD_TIMEOUT_MS, FORWARDED_HEADER, type RestForwarderOptions } from './forwarder';
