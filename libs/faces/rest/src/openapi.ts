import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ERROR_CODE_LIST } from '@apex/errors';
import { MAX_DEVICE_ID_LENGTH, MAX_SCREEN_VIEWERS_PER_DEVICE, type AnyOperation } from '@apex/capability';
import { clientInputSchema } from './catalog';
import { pathParamSchema } from './path-params';
import { HTTP_PROBLEMS, PROBLEM_TYPE_BASE } from './problem';
import { STEP_PATH_PARAM, STREAM_BOUNDARY, type MediaRoute } from './media';
import { DEVICE_INPUT_FIELD, DEVICE_PATH_PARAM, TASK_ROUTES, type RestRoute } from './routes';

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

const ProblemSchema = z
  .object({
    type: z.string().describe(`${PROBLEM_TYPE_BASE}<code>`),
    title: z.string(),
    status: z.number().int().min(400).max(599),
    detail: z.string().describe('What went wrong, written to be acted on.'),
    code: z.enum([...ERROR_CODE_LIST, ...(Object.keys(HTTP_PROBLEMS) as (keyof typeof HTTP_PROBLEMS)[])]),
    hint: z.string().optional().describe('What to do about it.'),
    retryable: z.boolean().optional(),
    instance: z.string().optional().describe('The request path.'),
    errors: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .optional()
      .describe('Each bad field of a validation problem.'),
  })
  .describe('An RFC 9457 problem details object.');

/** The Problem component, as JSON Schema 2020-12 (what OpenAPI 3.1 uses), from the zod schema above. */
function problemJsonSchema() {
  const { $schema: _drop, ...schema } = z.toJSONSchema(ProblemSchema, { target: 'draft-2020-12' });
  return schema;
}

const DEVICE_ID_DESCRIPTION = 'A device id, as listed by GET /devices (URL-encoded).';
const TASK_ID_DESCRIPTION = 'A task id, as returned by POST /agent/task.';

/**
 * The `{id}` parameter, documented with the schema of the input field it fills (the one that checks it). A device
 * id's length is a refinement there (to keep every MCP tool's schema small), invisible to JSON Schema: its bound
 * is shown from the same constant.
 */
function idParams(operation: AnyOperation | undefined, field: string, description: string) {
  const schema = pathParamSchema(operation, field);
  const shown = field === DEVICE_INPUT_FIELD ? schema.meta({ minLength: 1, maxLength: MAX_DEVICE_ID_LENGTH }) : schema;
  return z.object({ [DEVICE_PATH_PARAM]: shown.describe(description) });
}

const PROBLEM_CONTENT = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } };

/** The problem responses, each a component that routes refer to by status. */
const PROBLEM_RESPONSES: Record<string, { name: string; description: string }> = {
  '400': { name: 'InvalidArgument', description: 'Invalid argument: each bad field is listed in `errors`.' },
  '401': { name: 'Unauthorized', description: 'Missing or wrong bearer token.' },
  '404': { name: 'NotFound', description: 'Unknown device, app, element, task or recording.' },
  '409': { name: 'DeviceBusy', description: 'The device is busy.' },
  '413': { name: 'PayloadTooLarge', description: 'The body is larger than the limit.' },
  '415': { name: 'UnsupportedMediaType', description: 'The body is not application/json.' },
  '416': { name: 'RangeNotSatisfiable', description: 'The Range asked for is not within the file (Content-Range gives its size).' },
  '500': { name: 'InternalError', description: 'Internal error.' },
  '501': { name: 'UnsupportedOperation', description: 'The device does not support this operation.' },
  '502': { name: 'DeviceError', description: 'The device reported an error.' },
  '503': { name: 'DeviceOffline', description: 'The device is offline.' },
  '504': { name: 'DeviceTimeout', description: 'The device did not answer in time.' },
};
const COMMON_STATUSES = ['400', '404', '409', '500', '501', '502', '503', '504'];
const BODY_STATUSES = ['413', '415'];

function problemRefs(statuses: readonly string[]) {
  return Object.fromEntries(
    statuses.map((status) => [status, { $ref: `#/components/responses/${PROBLEM_RESPONSES[status].name}` }]),
  );
}

function successResponse(route: RestRoute, operation: AnyOperation): RouteConfig['responses'][string] {
  if (route.responder === 'image') {
    const binary = { schema: { type: 'string' as const, contentMediaType: 'image/*' } };
    return {
      description:
        'The image itself (JPEG by default, PNG on request), with the X-Image-Width, X-Image-Height and ' +
        'X-Pixels-Per-Point headers; the structured result plus base64 `data` when the request sends ' +
        'Accept: application/json.',
      content: {
        'image/jpeg': binary,
        'image/png': binary,
        'application/json': {
          schema: operation.output.extend({ data: z.string().describe('The image bytes, base64.') }),
        },
      },
    };
  }
  return { description: operation.title, content: { 'application/json': { schema: operation.output } } };
}

/** The step screenshot's parameters: the task id as get_task checks it, and the step number. */
function stepParams(operations: ReadonlyMap<string, AnyOperation>) {
  return idParams(operations.get('get_task'), 'taskId', TASK_ID_DESCRIPTION).extend({
    [STEP_PATH_PARAM]: z.string().regex(/^\d+$/).describe('The step number, from 1 (step n has index n − 1 in GET /task/{id}).'),
  });
}

/** The media routes' documentation: not operations, so written here. */
function mediaPath(route: MediaRoute, operations: ReadonlyMap<string, AnyOperation>): RouteConfig {
  const binary = { schema: { type: 'string' as const, contentMediaType: 'image/*' } };
  if (route.media === 'screen-stream') {
    return {
      method: 'get',
      path: route.path,
      operationId: 'stream_screen',
      summary: 'Live screen',
      description:
        'The screen live as an endless MJPEG stream (multipart/x-mixed-replace of JPEG parts, each with ' +
        `Content-Type and Content-Length; boundary "${STREAM_BOUNDARY}"), for an <img> or any MJPEG viewer. ` +
        "From the device's own stream when it has one (X-Frame-Source: device; an iPhone's frames are in native pixels), " +
        'else screenshots sent when the screen changes, at most 10 a second (X-Frame-Source: screenshots; one pixel ' +
        'per point). All viewers of a device share one source; a device serves at most ' +
        `${MAX_SCREEN_VIEWERS_PER_DEVICE} viewers at once (409 device_busy beyond). ` +
        'Map clicks with the screen size in points from GET /devices/{id}. Ends when the client disconnects.',
      tags: ['device'],
      request: { params: idParams(undefined, DEVICE_INPUT_FIELD, DEVICE_ID_DESCRIPTION) },
      responses: {
        '200': { description: 'The stream.', content: { 'multipart/x-mixed-replace': { schema: { type: 'string' } } } },
        ...problemRefs(['404', '409', '500', '502', '503', '504']),
      },
    };
  }
  if (route.media === 'recording') {
    return {
      method: 'get',
      path: route.path,
      operationId: 'get_recording',
      summary: 'Screen recording',
      description:
        'A finished screen recording as an MP4 (H.264), from the url stop_recording and list_recordings give. Takes ' +
        'Range requests (206 Partial Content), so a <video> can seek. 404 for an unknown id, one still recording, or one ' +
        'removed to keep the disk bounded.',
      tags: ['device'],
      request: { params: z.object({ [DEVICE_PATH_PARAM]: z.string().describe('The recording id (rec-…).') }) },
      responses: {
        '200': { description: 'The video.', content: { 'video/mp4': { schema: { type: 'string' as const, contentMediaType: 'video/mp4' } } } },
        '206': { description: 'The part of the video the Range header asked for.', content: { 'video/mp4': { schema: { type: 'string' as const } } } },
        ...problemRefs(['400', '404', '416', '500']),
      },
    };
  }
  return {
    method: 'get',
    path: route.path,
    operationId: 'get_step_screenshot',
    summary: 'Step screenshot',
    description:
      "The screenshot taken after step n of a task, as kept (JPEG), while retention keeps it. 404 when the task, the step or its screenshot is not there.",
    tags: ['tasks'],
    request: { params: stepParams(operations) },
    responses: {
      '200': { description: 'The image.', content: { 'image/jpeg': binary, 'image/png': binary } },
      ...problemRefs(['400', '404', '500']),
    },
  };
}

/** OpenAPI 3.1, generated from the route table and the operations' own zod schemas. */
export function buildOpenApiDocument(
  routes: readonly RestRoute[],
  operations: ReadonlyMap<string, AnyOperation>,
  options: { auth: boolean; version?: string; mcp?: boolean; media?: readonly MediaRoute[]; flowSchema?: boolean },
): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  // Always described; required (document-wide `security`) only when this server runs with a token.
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'The value of APEX_TOKEN. Required on every route but /healthz when the server runs with APEX_TOKEN.',
  });
  const security = options.auth ? [{ bearerAuth: [] }] : undefined;
  registry.registerComponent('schemas', 'Problem', problemJsonSchema() as Record<string, unknown>);
  for (const { name, description } of Object.values(PROBLEM_RESPONSES)) {
    registry.registerComponent('responses', name, { description, content: PROBLEM_CONTENT });
  }
  const authProblems = problemRefs(options.auth ? ['401'] : []);

  for (const route of routes) {
    const operation = operations.get(route.operation);
    if (!operation) throw new Error(`route ${route.method} ${route.path} names an unknown operation ${route.operation}`);
    const hasId = route.path.includes(`{${DEVICE_PATH_PARAM}}`);
    const pathField = route.pathField ?? DEVICE_INPUT_FIELD;
    const hasDevice = hasId && pathField === DEVICE_INPUT_FIELD;
    const isTask = TASK_ROUTES.includes(route);
    const input = clientInputSchema(operation, hasId ? [pathField] : []);
    const takesBody = route.method === 'POST';
    const request: RouteConfig['request'] = {};
    if (hasId) request.params = idParams(operation, pathField, hasDevice ? DEVICE_ID_DESCRIPTION : TASK_ID_DESCRIPTION);
    if (takesBody) {
      request.body = { required: false, content: { 'application/json': { schema: input } } };
    } else if (Object.keys(input.shape).length > 0) {
      request.query = input;
    }
    registry.registerPath({
      method: route.method === 'GET' ? 'get' : 'post',
      path: route.path, // templates already use OpenAPI's {name} syntax
      operationId: operation.name,
      summary: operation.title,
      description: operation.description,
      tags: [isTask ? 'tasks' : hasDevice ? 'device' : 'devices'],
      security,
      request,
      responses: {
        [String(route.successStatus ?? 200)]: successResponse(route, operation),
        ...problemRefs(takesBody ? [...COMMON_STATUSES, ...BODY_STATUSES] : COMMON_STATUSES),
        ...authProblems,
      },
      'x-apex-operation': operation.name,
      'x-apex-annotations': operation.annotations,
    } as RouteConfig);
  }

  for (const route of options.media ?? []) {
    const path = mediaPath(route, operations);
    registry.registerPath({ ...path, security, responses: { ...path.responses, ...authProblems } });
  }

  registry.registerPath({
    method: 'get',
    path: '/healthz',
    operationId: 'healthz',
    summary: 'Liveness',
    description: 'Answers {"status":"ok"} while the server runs. Never needs a token.',
    tags: ['service'],
    security: [],
    responses: {
      '200': {
        description: 'The server is up.',
        content: { 'application/json': { schema: z.object({ status: z.literal('ok') }) } },
      },
    },
  });
  if (options.flowSchema) {
    registry.registerPath({
      method: 'get',
      path: '/flows/schema',
      operationId: 'flow_schema',
      summary: 'Flow file schema',
      description: 'The JSON Schema (draft-07) of flow files, for editors: point the YAML language server at it.',
      tags: ['tasks'],
      security,
      responses: { '200': { description: 'A JSON Schema document.', content: { 'application/json': { schema: z.object({}).passthrough() } } }, ...authProblems },
    });
  }
  if (options.mcp) {
    registry.registerPath({
      method: 'post',
      path: '/mcp',
      operationId: 'mcp',
      summary: 'MCP (Streamable HTTP)',
      description:
        'The same operations as MCP tools, for MCP clients (Streamable HTTP transport; JSON-RPC messages). ' +
        'Point an MCP client at this URL.',
      tags: ['service'],
      security,
      responses: { '200': { description: 'A JSON-RPC response or an event stream.' }, ...authProblems },
    });
  }

  const generator = new OpenApiGeneratorV31(registry.definitions);
  return generator.generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Apex REST API',
      version: options.version ?? '0.1.0',
      description:
        'See and operate mobile devices. Coordinates are points. Every error is application/problem+json ' +
        `(RFC 9457) whose type is ${PROBLEM_TYPE_BASE}<code>.`,
    },
    tags: [
      { name: 'devices', description: 'The devices Apex controls.' },
      { name: 'device', description: 'Operations on one device; {id} is its id.' },
      { name: 'tasks', description: 'Agent tasks: a goal pursued on a device step by step; {id} is a task id.' },
      { name: 'service', description: 'Liveness and the MCP endpoint.' },
    ],
    security,
  });
}
