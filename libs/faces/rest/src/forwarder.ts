import { ApexError, isErrorCode, MAX_PUBLIC_TEXT_LENGTH, truncateText, type FieldIssue } from '@apex/errors';
import type { ClusterNode, ForwardedResult, OperationForwarder } from '@apex/capability';
import { DEVICE_INPUT_FIELD, RECORDING_ROUTES, REST_ROUTES, type RestRoute } from './routes';

/** Marks a request one node sends another: its operation is run there, never sent on again. */
export const FORWARDED_HEADER = 'Apex-Forwarded';

/** Default limit of one forwarded operation (an operation that waits on purpose gets its own wait on top). */
export const DEFAULT_FORWARD_TIMEOUT_MS = 60_000;

export interface RestForwarderOptions {
  /** The bearer token the other nodes serve with (the cluster's token); never logged, never shown. */
  token?: string;
  timeoutMs?: number;
}

/** The route that runs `operation` on the device of its path: the device operations and the recording ones. */
function routeOf(operation: string): RestRoute | undefined {
  return [...REST_ROUTES, ...RECORDING_ROUTES].find(
    (route) => route.operation === operation && route.path.includes('{id}') && (route.pathField ?? DEVICE_INPUT_FIELD) === DEVICE_INPUT_FIELD,
  );
}

/**
 * The REST client one node uses to run an operation on a device another node holds: the operation's own
 * route on that node, the input as a client would send it, the cluster's token as bearer. The node's answer
 * comes back as it gave it (its result, its semantic error); a node that cannot be reached, or does not
 * answer within the limit, is `unavailable` (retryable) naming it, and the request is ended.
 */
export function createRestForwarder(options: RestForwarderOptions = {}): OperationForwarder {
  const limitMs = options.timeoutMs ?? DEFAULT_FORWARD_TIMEOUT_MS;
  return {
    handles: (operation) => routeOf(operation) !== undefined,
    async forward(node, operation, input, { signal }): Promise<ForwardedResult> {
      const route = routeOf(operation.name);
      const device = String(input[DEVICE_INPUT_FIELD]);
      if (!route) throw new ApexError('internal', `${operation.name} has no route to send it to node ${node.url} on.`);
      const timeoutMs = limitMs + ownWaitMs(input);
      const deadline = AbortSignal.timeout(timeoutMs);
      const aborted = signal ? AbortSignal.any([signal, deadline]) : deadline;
      const { url, init } = requestOf(node, route, input, options.token);
      let response: Response;
      let text: string;
      try {
        response = await fetch(url, { ...init, signal: aborted, redirect: 'error' });
        text = await response.text();
      } catch (error) {
        if (signal?.aborted) throw new ApexError('device_timeout', `${operation.name} was cancelled: its caller stopped waiting.`, { cause: error });
        throw unreachable(node, device, deadline.aborted ? `did not answer within ${Math.round(timeoutMs / 1000)} s` : 'cannot be reached', error);
      }
      const body = parsedJson(text);
      if (!response.ok) throw errorOf(node, device, response.status, body);
      if (typeof body !== 'object' || body === null) throw unreachable(node, device, 'answered with something that is not JSON');
      if (route.responder !== 'image') return { output: body };
      const { data, ...output } = body as Record<string, unknown> & { data?: unknown; mimeType?: unknown };
      if (typeof data !== 'string') return { output };
      const mimeType = output.mimeType === 'image/png' ? 'image/png' : 'image/jpeg';
      return { output, image: { data: Buffer.from(data, 'base64'), mimeType } };
    },
  };
}

/** How long the operation itself waits on purpose (wait_for's timeoutMs, background_app's seconds). */
function ownWaitMs(input: Record<string, unknown>): number {
  const timeout = typeof input['timeoutMs'] === 'number' ? input['timeoutMs'] : 0;
  const seconds = typeof input['seconds'] === 'number' ? input['seconds'] * 1000 : 0;
  return timeout + seconds;
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function requestOf(node: ClusterNode, route: RestRoute, input: Record<string, unknown>, token: string | undefined): { url: URL; init: RequestInit } {
  const { [DEVICE_INPUT_FIELD]: device, ...rest } = input;
  const url = new URL(node.url.replace(/\/+$/, '') + route.path.replace('{id}', encodeURIComponent(String(device))));
  const headers: Record<string, string> = { Accept: 'application/json', [FORWARDED_HEADER]: '1' };
  if (token) headers['Authorization'] = `Bearer ${token}`;
  if (route.method === 'GET') {
    for (const [name, value] of Object.entries(rest)) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, typeof item === 'object' ? JSON.stringify(item) : String(item));
    }
    return { url, init: { method: 'GET', headers } };
  }
  return { url, init: { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(rest) } };
}

function unreachable(node: ClusterNode, device: string, what: string, cause?: unknown): ApexError {
  return new ApexError('unavailable', `Node ${node.id} (${node.url}), which holds device ${device}, ${what}.`, {
    hint: 'Retry in a few seconds: when that node is gone, its phones are listed again once another node takes them.',
    retryable: true,
    cause,
  });
}

/** The node's problem as the node gave it; a refused token, or a problem of HTTP itself, as this node's own. */
function errorOf(node: ClusterNode, device: string, status: number, body: unknown): ApexError {
  const problem = (typeof body === 'object' && body !== null ? body : {}) as { code?: unknown; detail?: unknown; hint?: unknown; retryable?: unknown; errors?: unknown };
  if (status === 401) {
    return new ApexError('unavailable', `Node ${node.id} (${node.url}), which holds device ${device}, refused this node's cluster token.`, {
      hint: 'The operator sets cluster.token (or APEX_CLUSTER_TOKEN) to the token the nodes serve with (their APEX_TOKEN); or call that node directly.',
      retryable: false,
    });
  }
  if (typeof problem.code === 'string' && isErrorCode(problem.code) && typeof problem.detail === 'string') {
    return new ApexError(problem.code, truncateText(problem.detail, MAX_PUBLIC_TEXT_LENGTH), {
      hint: typeof problem.hint === 'string' ? problem.hint : undefined,
      retryable: typeof problem.retryable === 'boolean' ? problem.retryable : undefined,
      issues: Array.isArray(problem.errors) ? (problem.errors as FieldIssue[]) : undefined,
    });
  }
  return unreachable(node, device, `answered HTTP ${status}`);
}
