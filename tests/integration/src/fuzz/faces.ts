import * as http from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { REST_ROUTES, TASK_ROUTES, type RestRoute } from '@apex/rest';
import { setOwn, type FieldSchema } from './arbitraries';

/**
 * One fuzz case as each face carries it. MCP gets the arguments as JSON; REST gets the operation's route:
 * the path field (`{id}`) in the path, the rest as the JSON body (POST) or the query string (GET).
 */

/** What a face answered: `success`, a semantic code, or what went wrong at the transport. */
export interface Verdict {
  outcome: string;
  /** Every string of the answer (message, hint, issues, output…), to look for stacks and driver words. */
  texts: string[];
  /** The answer, shortened, for a failure message. */
  shown: string;
}

export function routeOf(operation: string): RestRoute {
  const route = [...REST_ROUTES, ...TASK_ROUTES].find((r) => r.operation === operation);
  if (!route) throw new Error(`no REST route for ${operation}`);
  return route;
}

/** The input field a route's `{id}` carries, if it has one. */
export function pathFieldOf(route: RestRoute): string | undefined {
  return route.path.includes('{id}') ? (route.pathField ?? 'device') : undefined;
}

/** Every string in a JSON value, keys included. */
export function stringsIn(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsIn(item, into);
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      into.push(key);
      stringsIn(item, into);
    }
  }
  return into;
}

/** An error with its causes (fetch hides the socket error in `cause`). */
function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause === undefined ? error.message : `${error.message} (${describeFailure(error.cause)})`;
}

function shorten(text: string): string {
  return text.length > 600 ? `${text.slice(0, 600)}… (${text.length} characters)` : text;
}

const hex = (byte: number) => byte.toString(16).toUpperCase().padStart(2, '0');

/** A path segment as an HTTP client writes it: the UTF-8 bytes (lone surrogates as U+FFFD), percent-encoded. */
export function pathSegment(text: string): string {
  const unreserved = /[A-Za-z0-9_.~-]/;
  const encode = (byte: number) => (unreserved.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${hex(byte)}`);
  return [...Buffer.from(text, 'utf8')].map(encode).join('');
}

/** Text as it arrives after UTF-8 encoding (a URL cannot carry a lone surrogate: it becomes U+FFFD). */
function asSent(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

/** A JSON value as query text: strings as they are, everything else as its JSON. */
export function queryText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The REST face's documented rule for query values: numbers and booleans only when written as such. */
const NUMBER_TEXT = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

/** A number field, or a field one of whose kinds is a number (a query "5" is then the number 5). */
function isNumeric(field: FieldSchema | undefined): boolean {
  return field?.type === 'number' || field?.type === 'integer' || (field?.anyOf ?? []).some(isNumeric);
}

/** What a query value means for a field: the typed value an MCP client would send for the same call. */
export function queryMeaning(field: FieldSchema | undefined, text: string): unknown {
  if (isNumeric(field) && NUMBER_TEXT.test(text)) return Number(text);
  if (field?.type === 'boolean') {
    if (text === 'true' || text === '1') return true;
    if (text === 'false' || text === '0') return false;
  }
  return text;
}

export interface RestRequest {
  method: 'GET' | 'POST';
  path: string;
  /** The raw JSON body of a POST. */
  body?: string;
}

export interface FacedCase {
  /** The arguments an MCP client sends. */
  mcpArgs: Record<string, unknown>;
  rest: RestRequest;
}

/**
 * The same call for both faces. For a GET route the query string is what REST receives, so MCP gets what
 * that query means (a query can only say "5", not whether it was a number or a string).
 */
export function faceCase(
  operation: string,
  args: Record<string, unknown>,
  properties: Record<string, FieldSchema>,
): FacedCase {
  const route = routeOf(operation);
  const pathField = pathFieldOf(route);
  const rest: Record<string, unknown> = { ...args };
  let path = route.path;
  if (pathField) {
    path = path.replace('{id}', pathSegment(String(args[pathField])));
    delete rest[pathField];
  }
  if (route.method === 'POST') {
    return { mcpArgs: args, rest: { method: 'POST', path, body: JSON.stringify(rest) } };
  }
  const query = new URLSearchParams();
  const mcpArgs: Record<string, unknown> = pathField ? { [pathField]: args[pathField] } : {};
  for (const [name, value] of Object.entries(rest)) {
    const text = queryText(value);
    query.append(name, text);
    setOwn(mcpArgs, asSent(name), queryMeaning(properties[asSent(name)], asSent(text)));
  }
  const search = query.toString();
  return { mcpArgs, rest: { method: 'GET', path: search ? `${path}?${search}` : path } };
}

export async function callMcp(client: Client, operation: string, args: Record<string, unknown>): Promise<Verdict> {
  try {
    const result = (await client.callTool({ name: operation, arguments: args })) as CallToolResult;
    const text = JSON.stringify(result);
    if (!result.isError) return { outcome: 'success', texts: [], shown: shorten(text) };
    const error = result._meta?.['apex/error'] as { code?: string } | undefined;
    const texts = stringsIn({ content: result.content, error });
    return { outcome: error?.code ?? 'error without a code', texts, shown: shorten(text) };
  } catch (error) {
    const message = describeFailure(error);
    return { outcome: `mcp protocol failure: ${message.slice(0, 200)}`, texts: [message], shown: shorten(message) };
  }
}

/** A keep-alive HTTP client sending raw bodies, for REST calls and /healthz probes. */
export function httpClient(base: string, sockets = 4) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  const url = new URL(base);
  const send = (method: string, path: string, body?: string) =>
    new Promise<{ status: number; contentType: string; body: Buffer }>((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(body, 'utf8');
      const headers: http.OutgoingHttpHeaders = payload
        ? { 'content-type': 'application/json', 'content-length': payload.length, accept: 'application/json' }
        : { accept: 'application/json' };
      const req = http.request({ host: url.hostname, port: url.port, method, path, agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const contentType = String(res.headers['content-type'] ?? '');
          resolve({ status: res.statusCode ?? 0, contentType, body: Buffer.concat(chunks) });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
  return { send, close: () => agent.destroy() };
}

export async function callRest(client: ReturnType<typeof httpClient>, request: RestRequest): Promise<Verdict> {
  try {
    const answer = await client.send(request.method, request.path, request.body);
    const isJson = answer.contentType.includes('json');
    const text = isJson ? answer.body.toString('utf8') : `<${answer.body.length} bytes of ${answer.contentType}>`;
    if (answer.status >= 200 && answer.status < 300) return { outcome: 'success', texts: [], shown: shorten(text) };
    const problem = isJson ? (JSON.parse(text) as { code?: string }) : {};
    const outcome = problem.code ?? `HTTP ${answer.status} without a code`;
    return { outcome, texts: stringsIn(problem), shown: shorten(`${answer.status} ${text}`) };
  } catch (error) {
    const message = describeFailure(error);
    return { outcome: `rest transport failure: ${message.slice(0, 200)}`, texts: [message], shown: shorten(message) };
  }
}
