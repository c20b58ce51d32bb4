import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ProxiedRequest {
  seq: number;
  method: string;
  path: string;
  body: string;
}

/**
 * A small HTTP proxy in front of a device server that records what passes, in arrival order, with a
 * `request`/`response` event per exchange; `hold` parks matching requests until `release()`.
 */
export class RecordingProxy {
  readonly requests: ProxiedRequest[] = [];
  /** "request 3" / "response 3", in the order they happened. */
  readonly events: string[] = [];
  private server?: http.Server;
  private readonly sockets = new Set<Socket>();
  private holdPredicate?: (request: ProxiedRequest) => boolean;
  private held: (() => void)[] = [];
  private readonly agent = new http.Agent({ keepAlive: true });
  url = '';

  constructor(private readonly target: string) {}

  async start(): Promise<this> {
    const target = new URL(this.target);
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const entry: ProxiedRequest = {
          seq: this.requests.length,
          method: req.method ?? 'GET',
          path: req.url ?? '/',
          body: Buffer.concat(chunks).toString('utf8'),
        };
        this.requests.push(entry);
        this.events.push(`request ${entry.seq}`);
        const forward = () => {
          const upstream = http.request(
            { host: target.hostname, port: target.port, method: entry.method, path: entry.path, headers: req.headers, agent: this.agent },
            (upRes) => {
              res.writeHead(upRes.statusCode ?? 502, upRes.headers);
              upRes.pipe(res);
              upRes.on('end', () => this.events.push(`response ${entry.seq}`));
            },
          );
          upstream.on('error', () => res.destroy());
          upstream.end(entry.body);
        };
        if (this.holdPredicate?.(entry)) this.held.push(forward);
        else forward();
      });
    });
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  hold(predicate: (request: ProxiedRequest) => boolean): void {
    this.holdPredicate = predicate;
  }

  get heldCount(): number {
    return this.held.length;
  }

  release(): void {
    this.holdPredicate = undefined;
    for (const forward of this.held.splice(0)) forward();
  }

  async close(): Promise<void> {
    this.release();
    for (const socket of this.sockets) socket.destroy();
    this.agent.destroy();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

