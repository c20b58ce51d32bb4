import * as http from 'node:http';

export interface RawReply {
  status: number;
  /** Lower-case header names. */
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON on first read; undefined when it is not JSON. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly json: any;
}

/**
 * Bare HTTP calls to a WDA server, the way any client sends them: keep-alive, no validation and no parsing
 * beyond reading the body (JSON only when asked for). For tests and the benchmark's floor.
 */
export interface RawWda {
  request(method: string, path: string, body?: unknown): Promise<RawReply>;
  get(path: string): Promise<RawReply>;
  /** A string body is sent as it is; anything else as JSON. Default `{}`. */
  post(path: string, body?: unknown): Promise<RawReply>;
  delete(path: string): Promise<RawReply>;
  /** Closes the kept-alive sockets. */
  close(): void;
}

export interface RawWdaOptions {
  /** Fails a request that takes longer (a hung server, not a timing check). Default 60 s. */
  timeoutMs?: number;
  /** Concurrent connections; more requests wait for one. Default unlimited (sequential calls share one). */
  maxSockets?: number;
  /**
   * Reuse connections (default true). Turn off where the server drops connections on purpose (going offline):
   * a request sent on a pooled socket the server has just closed fails with "socket hang up".
   */
  keepAlive?: boolean;
}

export function rawWda(url: string, options: RawWdaOptions = {}): RawWda {
  const agent = new http.Agent({ keepAlive: options.keepAlive ?? true, maxSockets: options.maxSockets ?? Infinity });
  const base = new URL(url);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const request = (method: string, path: string, body?: unknown) =>
    new Promise<RawReply>((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
      const headers: http.OutgoingHttpHeaders = payload ? { 'Content-Type': 'application/json', 'Content-Length': payload.length } : {};
      const req = http.request({ host: base.hostname, port: base.port, path, method, agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(reply(res.statusCode ?? 0, res.headers, Buffer.concat(chunks).toString('utf8'))));
        res.on('error', reject);
      });
      req.setTimeout(timeoutMs, () => req.destroy(new Error(`${method} ${path} got no answer within ${timeoutMs} ms`)));
      req.on('error', reject);
      req.end(payload);
    });
  return {
    request,
    get: (path) => request('GET', path),
    post: (path, body = {}) => request('POST', path, body),
    delete: (path) => request('DELETE', path),
    close: () => agent.destroy(),
  };
}

function reply(status: number, headers: http.IncomingHttpHeaders, text: string): RawReply {
  let parsed: { value: unknown } | undefined;
  return {
    status,
    headers,
    text,
    get json() {
      if (!parsed) {
        try {
          parsed = { value: JSON.parse(text) };
        } catch {
          parsed = { value: undefined };
        }
      }
      return parsed.value;
    },
  };
}
