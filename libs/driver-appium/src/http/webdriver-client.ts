import * as http from 'node:http';
import { classifyNodeError, WebDriverMalformedReply, WebDriverProtocolError, WebDriverTransportError } from './webdriver-errors';

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

export interface WebDriverRequest {
  method: HttpMethod;
  /** Path from the server root, e.g. `/status` or `/session/ID/screenshot`. */
  path: string;
  body?: unknown;
  /** Overrides the client's request timeout for this call. */
  timeoutMs?: number;
  /**
   * A read with no effect on the device: it may be sent again when a kept-alive socket turned out to be
   * closed. Mutations are never re-sent after a transport failure: they may have arrived.
   */
  idempotent?: boolean;
  /** Added to the route in errors, e.g. the `mobile:` command name (logs only). */
  label?: string;
}

export interface WebDriverClientOptions {
  /** e.g. http://127.0.0.1:4723 (a base path such as /wd/hub is kept). */
  baseUrl: string;
  /** Whole request, from sending to the last byte of the reply. */
  requestTimeoutMs: number;
  /** TCP connect only. */
  connectTimeoutMs: number;
  /** Largest reply accepted (screenshots and sources are the big ones). */
  maxReplyBytes?: number;
}

/**
 * JSON over HTTP/1.1 to a W3C WebDriver server, with keep-alive, a connect bound and a whole-request bound.
 * Resolves with the envelope's `value`; throws WebDriverProtocolError (error envelope), WebDriverMalformedReply
 * (not the envelope) or WebDriverTransportError (no complete answer).
 */
export class WebDriverClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 4, keepAliveMsecs: 1_000 });
  private readonly base: URL;

  constructor(private readonly options: WebDriverClientOptions) {
    this.base = new URL(options.baseUrl);
  }

  async send(request: WebDriverRequest): Promise<unknown> {
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

  private sendOnce(request: WebDriverRequest): Promise<unknown> {
    const url = new URL(this.base.pathname.replace(/\/$/, '') + request.path, this.base);
    const payload = request.body === undefined ? undefined : Buffer.from(JSON.stringify(request.body));
    const timeoutMs = request.timeoutMs ?? this.options.requestTimeoutMs;
    const maxBytes = this.options.maxReplyBytes ?? 128 * 1024 * 1024;
    const route = `${request.method} ${url.pathname}${request.label ? ` (${request.label})` : ''}`;

    return new Promise<unknown>((resolve, reject) => {
      let settled = false;
      let connectTimer: NodeJS.Timeout | undefined;
      const finish = (error: unknown, value?: { value: unknown }) => {
        if (settled) return;
        settled = true;
        clearTimeout(totalTimer);
        clearTimeout(connectTimer);
        if (value) resolve(value.value);
        else reject(error);
      };

      const req = http.request(url, {
        method: request.method,
        agent: this.agent,
        headers: {
          Accept: 'application/json',
          ...(payload ? { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': payload.length } : {}),
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
            finish(undefined, { value: parseEnvelope(res.statusCode ?? 0, route, Buffer.concat(chunks).toString('utf8')) });
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

/** Reads the W3C envelope: success `{value}`; error `{value:{error, message, stacktrace}}` with a 4xx/5xx status. */
export function parseEnvelope(status: number, route: string, text: string): unknown {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new WebDriverMalformedReply(status, route, text.slice(0, 200));
  }
  if (!isRecord(json) || !('value' in json)) throw new WebDriverMalformedReply(status, route, text.slice(0, 200));
  const value = json.value;
  const errorName = isRecord(value) && typeof value.error === 'string' ? value.error : undefined;
  if (status >= 200 && status < 300 && errorName === undefined) return value;
  if (errorName === undefined || !isRecord(value)) throw new WebDriverMalformedReply(status, route, text.slice(0, 200));
  const message = typeof value.message === 'string' ? value.message : '';
  const trace =
    typeof value.stacktrace === 'string' ? value.stacktrace : typeof value.traceback === 'string' ? value.traceback : undefined;
  throw new WebDriverProtocolError(status, errorName, message, trace, route);
}
