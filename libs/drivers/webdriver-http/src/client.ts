import * as http from 'node:http';
import * as https from 'node:https';
import { classifyNodeError, WebDriverMalformedReply, WebDriverProtocolError, WebDriverTransportError } from './errors';

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

export interface WebDriverRequest {
  method: HttpMethod;
  /** Path from the server root, e.g. `/status` or `/session/ID/screenshot`; may carry a query string. */
  path: string;
  body?: unknown;
  /**
   * Ends the request when it aborts (the socket is destroyed) and rejects with `aborted`, or with
   * `response_timeout` when its reason is a `TimeoutError` (e.g. `AbortSignal.timeout`). The client itself
   * bounds only the connect: whoever owns the call owns its time limit.
   */
  signal: AbortSignal;
  /**
   * A read with no effect on the device: it may be sent again when a kept-alive socket turned out to be
   * closed. Mutations are never re-sent after a transport failure: they may have arrived.
   */
  idempotent?: boolean;
  /** Added to the route in errors, e.g. the `mobile:` command name (logs only). */
  label?: string;
}

/** A success envelope. */
export interface WebDriverReply {
  value: unknown;
  sessionId: string | null;
}

export interface WebDriverHttpClientOptions {
  /** e.g. http://127.0.0.1:8100 (a base path such as /wd/hub is kept). */
  baseUrl: string;
  /** TCP connect only; the rest of a request is bounded by its signal. */
  connectTimeoutMs: number;
  /** Largest reply accepted (screenshots and sources are the big ones). */
  maxReplyBytes?: number;
  /** Sent as the `Authorization` header of every request (a device cloud's credentials); never logged. */
  authorization?: string;
}

/**
 * JSON over HTTP/1.1 to a WebDriver-style server, with keep-alive, a connect bound and an AbortSignal on
 * every request. Resolves with the success envelope; throws WebDriverProtocolError (error
 * envelope), WebDriverMalformedReply (not the envelope) or WebDriverTransportError (no complete answer).
 */
export class WebDriverHttpClient {
  private readonly agent: http.Agent;
  /** Where every request goes, read from the base URL once (a request is sent per tap: no URL parse per call). */
  private readonly target: { host: string; port: string; basePath: string };
  private readonly request: typeof http.request;

  constructor(private readonly options: WebDriverHttpClientOptions) {
    const base = new URL(options.baseUrl);
    // A device cloud's hub is https; a phone's own agent and a lab's hub are usually plain http.
    const secure = base.protocol === 'https:';
    const agentOptions = { keepAlive: true, maxSockets: 4, keepAliveMsecs: 1_000 };
    this.agent = secure ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
    this.request = secure ? https.request : http.request;
    // An IPv6 literal is [::1] in a URL, ::1 to the socket.
    const host = base.hostname.startsWith('[') ? base.hostname.slice(1, -1) : base.hostname;
    this.target = { host, port: base.port || (secure ? '443' : '80'), basePath: base.pathname.replace(/\/$/, '') };
  }

  async send(request: WebDriverRequest): Promise<WebDriverReply> {
    try {
      return await this.sendOnce(request);
    } catch (error) {
      if (request.idempotent && !request.signal.aborted && error instanceof WebDriverTransportError && error.failure === 'reset' && error.reusedSocket) {
        return this.sendOnce(request);
      }
      throw error;
    }
  }

  close(): void {
    this.agent.destroy();
  }

  private sendOnce(request: WebDriverRequest): Promise<WebDriverReply> {
    const { host, port, basePath } = this.target;
    const path = requestTarget(basePath + request.path);
    const payload = request.body === undefined ? undefined : Buffer.from(JSON.stringify(request.body));
    const maxBytes = this.options.maxReplyBytes ?? 128 * 1024 * 1024;
    const route = `${request.method} ${path.split('?')[0]}${request.label ? ` (${request.label})` : ''}`;
    const { signal } = request;
    return new Promise<WebDriverReply>((resolve, reject) => {
      if (signal.aborted) {
        reject(abortFailure(signal, route, false));
        return;
      }
      let settled = false;
      let connectTimer: NodeJS.Timeout | undefined;
      const req = this.request({
        host,
        port,
        path,
        method: request.method,
        agent: this.agent,
        headers: {
          Accept: 'application/json',
          ...(this.options.authorization ? { Authorization: this.options.authorization } : {}),
          ...(payload ? { 'Content-Type': 'application/json;charset=UTF-8', 'Content-Length': payload.length } : {}),
        },
      });
      const finish = (error: unknown, reply?: WebDriverReply) => {
        if (settled) return;
        settled = true;
        clearTimeout(connectTimer);
        signal.removeEventListener('abort', onAbort);
        if (reply) resolve(reply);
        else reject(error);
      };
      // Destroying the request closes its socket: the server sees the client go, nothing is left running here.
      const onAbort = () => {
        finish(abortFailure(signal, route, req.reusedSocket));
        req.destroy();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      req.on('socket', (socket) => {
        if (!socket.connecting) return;
        connectTimer = setTimeout(() => {
          req.destroy(new WebDriverTransportError('connect_timeout', `${route}: no connection within ${this.options.connectTimeoutMs} ms`));
        }, this.options.connectTimeoutMs);
        socket.once('connect', () => clearTimeout(connectTimer));
      });
      req.on('error', (error) => finish(classifyNodeError(error, req.reusedSocket)));
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            req.destroy();
            finish(new WebDriverMalformedReply(res.statusCode ?? 0, route, `reply larger than ${maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('aborted', () => finish(new WebDriverTransportError('reset', `${route}: the reply was cut off`, req.reusedSocket)));
        res.on('error', (error) => finish(classifyNodeError(error, req.reusedSocket)));
        res.on('end', () => {
          try {
            finish(undefined, parseEnvelope(res.statusCode ?? 0, route, Buffer.concat(chunks).toString('utf8')));
          } catch (error) {
            finish(error);
          }
        });
      });
      req.end(payload);
    });
  }
}

/** The path as sent: as written when it is plain ASCII (the usual case), else percent-encoded as a URL would be. */
function requestTarget(path: string): string {
  if (/^[\x21-\x7e]*$/.test(path)) return path;
  const url = new URL(path, 'http://target.invalid');
  return url.pathname + url.search;
}

/** A request ended by its signal: `response_timeout` when the reason is a time limit, else `aborted`. */
function abortFailure(signal: AbortSignal, route: string, reusedSocket: boolean): WebDriverTransportError {
  const reason: unknown = signal.reason;
  const timedOut = (reason as { name?: unknown } | null)?.name === 'TimeoutError';
  return timedOut
    ? new WebDriverTransportError('response_timeout', `${route}: no complete reply in time`, reusedSocket, { cause: reason })
    : new WebDriverTransportError('aborted', `${route}: the request was cancelled`, reusedSocket, { cause: reason });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads the envelope WebDriverAgent and W3C servers share: success `{value, sessionId}` (a W3C server may
 * leave `sessionId` out); error `{value:{error, message, traceback|stacktrace}}`, normally with a 4xx/5xx.
 */
export function parseEnvelope(status: number, route: string, text: string): WebDriverReply {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new WebDriverMalformedReply(status, route, text.slice(0, 200));
  }
  if (!isRecord(json) || !('value' in json)) throw new WebDriverMalformedReply(status, route, text.slice(0, 200));
  const value = json.value;
  const sessionId = typeof json.sessionId === 'string' ? json.sessionId : null;
  const errorName = isRecord(value) && typeof value.error === 'string' ? value.error : undefined;
  if (status >= 200 && status < 300 && errorName === undefined) return { value, sessionId };
  if (errorName === undefined || !isRecord(value)) throw new WebDriverMalformedReply(status, route, text.slice(0, 200));
  const message = typeof value.message === 'string' ? value.message : '';
  const trace =
    typeof value.traceback === 'string' ? value.traceback : typeof value.stacktrace === 'string' ? value.stacktrace : undefined;
  throw new WebDriverProtocolError(status, errorName, message, trace, route);
}
