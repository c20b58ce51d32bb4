import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol, type RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestParamsSchema,
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { echoName } from '@apex/errors';
import { catalogOf, loggableInput, runOperation, TOOLSETS, type AnyOperation, type OperationContext, type Toolset } from '@apex/capability';
import type { McpLogger } from './logger';
import { toCallToolResult, toErrorResult } from './results';
import { toolDefinitions } from './tool-list';
import { ToolsetSession } from './toolset-tools';

export interface McpServerOptions {
  /** The catalog to serve; default the context's (`catalogOf`). */
  operations?: readonly AnyOperation[];
  logger?: McpLogger;
  /** Tool calls this server answers in all (default no limit): the HTTP face serves one POST per server. */
  maxToolCalls?: number;
  name?: string;
  version?: string;
  /**
   * The toolsets listed and callable at first (default all of them); the mains pass the operator's choice,
   * whose default is DEFAULT_TOOLSETS (see resolveToolsets).
   */
  toolsets?: readonly Toolset[];
  /**
   * Whether the client may widen them with enable_toolset (default true): only a session that outlives one
   * request can (stdio; not the stateless HTTP endpoint, which passes false and says how in `toolsetsHint`).
   */
  dynamicToolsets?: boolean;
  /** What a refusal of a tool outside the toolsets tells a client that cannot enable_toolset. */
  toolsetsHint?: (toolset: Toolset) => string;
}

const INSTRUCTIONS =
  'Apex controls mobile devices. Start with list_devices (omit `device` for the only or default device; answers name it), then describe_screen to see what is on screen; tap the `center` points it reports. Coordinates are points. More tools (apps, environment, tasks, …) are grouped in toolsets: list_toolsets shows them.';

/**
 * tools/call as the SDK defines it, except that `arguments` reach the catalog as sent: the SDK's record parse
 * drops a `__proto__` key, which the catalog (like REST) must see to refuse it as an unknown field.
 */
const CallToolAsSentSchema = CallToolRequestSchema.extend({
  params: CallToolRequestParamsSchema.extend({ arguments: z.unknown().optional() }),
});

/**
 * An MCP server exposing the operations of its toolsets as tools, plus list_toolsets and enable_toolset (which
 * widens the list and sends notifications/tools/list_changed). It uses the low-level `Server` rather than
 * `McpServer` so that input is validated by the catalog (`runOperation`), which answers with a semantic
 * `invalid_argument` listing each bad field, while `tools/list` still advertises the strict JSON Schemas.
 * Unknown tools and malformed requests stay protocol errors.
 */
export function createMcpServer<Ctx extends OperationContext>(ctx: Ctx, options: McpServerOptions = {}): Server {
  const operations = options.operations ?? catalogOf(ctx);
  const byName = new Map(operations.map((op) => [op.name, op]));
  const dynamic = options.dynamicToolsets ?? true;
  const server = new Server(
    { name: options.name ?? 'apex', version: options.version ?? '0.1.0' },
    { capabilities: { tools: dynamic ? { listChanged: true } : {} }, instructions: INSTRUCTIONS },
  );
  const toolsets = new ToolsetSession(operations, {
    toolsets: options.toolsets ?? TOOLSETS,
    dynamic,
    staticHint: options.toolsetsHint,
    onChange: () => server.sendToolListChanged(),
  });

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolDefinitions(toolsets.listed()) }));
  // `extra.signal` aborts on notifications/cancelled and when the connection closes.
  let toolCalls = 0;
  // Registered as the protocol registers any request: the SDK's `Server` wraps a tools/call handler to parse the
  // request a second time (CallToolAsSentSchema already has) and each result once more, ~20 µs a call run cold
  // (6 % of an in-process call). Results are made by toCallToolResult and toErrorResult only, and clients check
  // them against CallToolResultSchema (the SDK's client does, in every spec of this face).
  const setRequestHandler: typeof server.setRequestHandler = Protocol.prototype.setRequestHandler;
  setRequestHandler.call(server, CallToolAsSentSchema, async (request, extra) => {
    const { name, arguments: args } = request.params;
    if (options.maxToolCalls !== undefined && ++toolCalls > options.maxToolCalls) {
      throw new McpError(
        ErrorCode.InvalidRequest,
        `One request may carry at most ${options.maxToolCalls} tool calls; send the others in further requests.`,
      );
    }
    const op = byName.get(name);
    const own = !op && toolsets.isOwnTool(name);
    if (!op && !own) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${echoName(name)}. Call tools/list for the available tools.`);
    const started = performance.now();
    const logger = options.logger;
    if (op && logger?.debug && logger.isLevelEnabled?.('debug') !== false) {
      logger.debug({ tool: name, input: loggableInput(op, (args ?? {}) as Record<string, unknown>) }, 'tool input');
    }
    try {
      const refusal = op && toolsets.refusal(op);
      if (refusal) throw refusal;
      const result = toCallToolResult(
        op ? await runOperation(ctx, op, args ?? {}, operations, { signal: extra.signal, onProgress: progressReporter(extra) }) : await toolsets.run(name, args),
      );
      options.logger?.info({ tool: name, ms: Math.round(performance.now() - started) }, 'tool call');
      return result;
    } catch (error) {
      const result = toErrorResult(error);
      // The cause stays in the log (stderr), never in the result.
      const cause = error instanceof Error && error.cause !== undefined ? String(error.cause) : undefined;
      options.logger?.warn({ tool: name, ms: Math.round(performance.now() - started), error: result._meta, cause }, 'tool call failed');
      return result;
    }
  });
  return server;
}

/**
 * notifications/progress for a request that asked for them (its `_meta.progressToken`): each message (a phase of
 * the device's preparation the call waits for) with a count that only grows, as the spec requires.
 */
function progressReporter(extra: RequestHandlerExtra<ServerRequest, ServerNotification>): ((message: string) => void) | undefined {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  let progress = 0;
  return (message) => {
    progress += 1;
    // A client gone away does not fail the call over a lost notification.
    extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress, message } }).catch(() => undefined);
  };
}
