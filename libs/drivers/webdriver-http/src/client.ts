import * as http from 'node:http';
import { classifyNodeError, WebDriverMalformedReply, WebDriverProtocolError, WebDriverTransportError } from './errors';

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

export interface WebDriverRequest {
  method: HttpMethod;
  /** Path from the server root, e.g. `/status` or `/session/ID/screenshot`; may carry a query string. */
  path: string;
  body?: unknown;
  /** Overrides the client's request timeout for this call. */
  timeoutMs?: number;
  signal?: AbortSignal;
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
  /** Whole request, from sending to the last byte of the reply. */
  requestTimeoutMs: number;
  /** TCP connect only. */
  connectTimeoutMs: number;
  /** Largest reply accepted (screenshots and sources are the big ones). */
  maxReplyBytes?: number;
}

/**
 * JSON over HTTP/1.1 to a WebDriver-style server, with keep-alive, a connect bound, a whole-request bound
 * and AbortSignal support. Resolves with the success envelope; throws WebDriverProtocolError (error
 * envelope), WebDriverMalformedReply (not the envelope) or WebDriverTransportError (no complete answer).
 */
export class WebDriverHttpClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 4, keepAliveMsecs: 1_000 });
  private readonly base: URL;

  constructor(private readonly options: WebDriverHttpClientOptions) {
    this.base = new URL(options.baseUrl);
  }

  async send(request: WebDriverRequest): Promise<WebDriverReply> {
    try {
      return await this.sendOnce(request);
    } catch (error) {
      if (request.idempotent && error instanceof WebDriverTransportError && error.failure === 'reset' && error.reusedSocket) {
        return this.sendOnce(request);
      }
      throw error;
    }
  }

  close(): void {
    this.agent.destroy();
  }

  private sendOnce(request: WebDriverRequest): Promise<WebDriverReply> {
    const url = new URL(this.base.pathname.replace(/\/$/, '') + request.path, this.base);
    const payload = request.body === undefined ? undefined : Buffer.from(JSON.stringify(request.body));
    const timeoutMs = request.timeoutMs ?? this.options.requestTimeoutMs;
    const maxBytes = this.options.maxReplyBytes ?? 128 * 1024 * 1024;
    const route = `${request.method} ${url.pathname}${request.label ? ` (${request.label})` : ''}`;

    return new Promise<WebDriverReply>((resolve, reject) => {
      let settled = false;
      let connectTimer: NodeJS.Timeout | undefined;
      const finish = (error: unknown, reply?: WebDriverReply) => {
        if (settled) return;
        settled = true;
        clearTimeout(totalTimer);
        clearTimeout(connectTimer);
        if (reply) resolve(reply);
        else reject(error);
      };

      const req = http.request(url, {
        method: request.method,
        agent: this.agent,
        signal: request.signal,
        headers: {
          Accept: 'application/json',
          ...(payload ? { 'Content-Type': 'application/json;charset=UTF-8', 'Content-Length': payload.length } : {}),
        },
      });

      const totalTimer = setTimeout(() => {
        req.destroy(new WebDriverTransportError('response_timeout', `${route}: no complete reply within ${timeoutMs} ms`, req.reusedSocket));
      }, timeoutMs);

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
