import * as http from 'node:http';
import type { Socket } from 'node:net';
import { ApexError } from '@apex/errors';
import { applyCors, applyServerTimeouts, refusalOf, type CorsPolicy } from '@apex/serve-security';
import { handleAdmin, ADMIN_PREFIX } from '../faults/admin';
import { Faults } from '../faults/fault-controller';
import type { Phone } from '../model';
import { DeviceFace } from './device-face';
import { RawResponse, Router, type RouteContext } from './router';
import { WDA_ROUTES } from './routes';
import { invalidArgument, WdaError } from './wda-error';

/**
 * The WebDriverAgent HTTP face of a phone (node:http). Commands run one at a time, as WDA runs every handler
 * on the main queue; faults are applied around them; nothing a client sends can crash it. Unlike a real WDA it
 * does not answer any web page: foreign origins and (unless remote use is allowed) foreign Host names are
 * refused, CORS is for loopback pages only, and a body must be sent as JSON.
 */

const KNOWN_VERBS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS']);
const MAX_BODY_BYTES = 64 * 1024 * 1024;
const KEEP_ALIVE_MS = 30_000;
const TRACEBACK = '(the virtual iPhone has no native call stack)';
export const INJECTED_FAILURE_MESSAGE = 'Injected fault: the virtual iPhone failed this request on purpose';

/** What a loopback page may send (a local tool driving the phone from a browser). */
const CORS: CorsPolicy = { methods: ['GET', 'POST', 'DELETE'], allowHeaders: ['Content-Type', 'Accept'] };

interface JsonReply {
  status: number;
  payload: unknown;
}

type Reply = JsonReply | RawResponse;

export interface WdaServerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Mounts the fault admin path `/__apex/faults` (otherwise it is an unknown command, 404). */
  faults?: boolean;
  /** Serves any Host name (the phone is reachable beyond this machine on purpose). */
  allowRemote?: boolean;
  /** Called after a command that changed the screen was answered (the screen stream prepares its next frame). */
  onScreenChange?: () => void;
}

export class WdaServer {
  readonly face: DeviceFace;
  readonly faults: Faults;
  private readonly router = new Router(WDA_ROUTES);
  private readonly server: http.Server;
  private readonly sockets = new Set<Socket>();
  private queue: Promise<unknown> = Promise.resolve();
  private boundPort: number;
  private closed = false;

  constructor(
    readonly phone: Phone,
    private readonly options: WdaServerOptions,
  ) {
    this.face = new DeviceFace(phone);
    this.boundPort = options.port;
    this.faults = new Faults({
      endSession: () => this.face.endSession(),
      stopListening: () => this.stopListening(),
      startListening: () => this.startListening(),
    });
    this.server = http.createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => this.lastResort(response, error));
    });
    // Keep-alive longer than common client idle timeouts (undici: 4 s), so a client, not the server, retires an
    // idle connection: otherwise a long synchronous render can let both time out at once and the client reuses a
    // socket the server is closing (ECONNRESET).
    applyServerTimeouts(this.server, { keepAliveTimeoutMs: KEEP_ALIVE_MS });
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  get port(): number {
    return this.boundPort;
  }

  get host(): string {
    return this.options.host;
  }

  /** Binds the port (a free one for port 0); rejects with a clear ApexError when it is taken. */
  async listen(): Promise<void> {
    await this.startListening();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.faults.dispose();
    if (this.server.listening) await this.stopListening();
    else this.destroySockets();
  }

  private startListening(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the virtual iPhone has been closed'));
    return new Promise((resolve, reject) => {
      const onError = (error: NodeJS.ErrnoException) => {
        this.server.off('listening', onListening);
        if (error.code === 'EADDRINUSE') {
          reject(
            new ApexError('invalid_argument', `Port ${this.boundPort} on ${this.options.host} is already in use.`, {
              hint: 'Choose another port, or 0 for a free one.',
              cause: error,
            }),
          );
        } else {
          reject(error);
        }
      };
      const onListening = () => {
        this.server.off('error', onError);
        const address = this.server.address();
        if (address && typeof address === 'object') this.boundPort = address.port;
        resolve();
      };
      this.server.once('error', onError);
      this.server.once('listening', onListening);
      this.server.listen(this.boundPort, this.options.host);
    });
  }

  private stopListening(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.destroySockets();
    });
  }

  private destroySockets(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    response.on('error', () => undefined);
    const refusal = refusalOf(request, { anyHost: this.options.allowRemote });
    if (refusal) {
      const payload = { value: { error: 'unknown error', message: `Forbidden: ${refusal.message}`, traceback: TRACEBACK }, sessionId: null };
      await send(response, 403, 'application/json;charset=UTF-8', JSON.stringify(payload, null, 2));
      return;
    }
    if (applyCors(request, response, CORS)) return;
    const method = (request.method ?? 'GET').toUpperCase();
    const url = parseUrl(request.url);
    const rawBody = await readBody(request);
    if (rawBody === null) {
      request.socket.destroy();
      return;
    }
    const body = parseJsonBody(request.headers['content-type'], rawBody);

    if (this.options.faults && url.path.toLowerCase().startsWith(ADMIN_PREFIX)) {
      const admin = handleAdmin(this.faults, method, url.path, body, () => undefined);
      await send(response, admin.status, 'application/json;charset=UTF-8', JSON.stringify(admin.body, null, 2));
      await admin.after?.();
      return;
    }

    const decision = this.faults.decide();
    if (decision === 'drop') {
      request.socket.destroy();
      return;
    }
    let reply: Reply;
    let changed = false;
    if (!KNOWN_VERBS.has(method)) {
      reply = new RawResponse(404, 'text/plain;charset=UTF-8', 'Not Found');
    } else if (decision === 'fail') {
      reply = this.errorReply(new WdaError('unknown error', INJECTED_FAILURE_MESSAGE));
    } else if (method === 'OPTIONS') {
      reply = { status: 200, payload: { value: null } };
    } else if (body instanceof WdaError) {
      reply = this.errorReply(body);
    } else {
      const before = this.phone.version;
      reply = await this.enqueue(() => this.dispatch(method, url.path, url.query, asObject(body.json)));
      changed = this.phone.version !== before;
    }
    await this.faults.delay();
    if (decision === 'malform') {
      await send(response, 200, 'application/json;charset=UTF-8', '{"value": {"malformed": tru');
      return;
    }
    if (reply instanceof RawResponse) await send(response, reply.status, reply.contentType, reply.body);
    else await send(response, reply.status, 'application/json;charset=UTF-8', JSON.stringify(reply.payload, null, 2));
    if (changed) this.options.onScreenChange?.();
  }

  /** Runs commands strictly one after another. */
  private enqueue<T>(command: () => T): Promise<T> {
    const run = this.queue.then(command, command);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async dispatch(method: string, path: string, query: Record<string, string>, body: Record<string, unknown>): Promise<Reply> {
    try {
      const match = this.router.match(method, path);
      if (!match) {
        throw new WdaError('unknown command', `Unhandled endpoint: ${path} with parameters ${JSON.stringify({ ...query, ...body })}`);
      }
      const active = this.face.session;
      if (match.sessionId !== undefined && active?.id !== match.sessionId) {
        throw new WdaError('invalid session id', 'Session does not exist');
      }
      const context: RouteContext = {
        phone: this.phone,
        face: this.face,
        params: { ...query, ...match.params },
        query,
        body,
        session: active,
      };
      this.applyDefaultAlertAction(context, match.route.pattern);
      // A handler may wait (e.g. /wda/deactivateApp's duration); commands stay one at a time meanwhile, as in WDA.
      const value = await match.route.handler(context);
      if (value instanceof RawResponse) return value;
      return { status: 200, payload: { value: value === undefined ? null : value, sessionId: this.face.session?.id ?? null } };
    } catch (error) {
      return this.errorReply(error);
    }
  }

  /** With `defaultAlertAction`, WDA answers a system alert by itself before running a command. */
  private applyDefaultAlertAction(context: RouteContext, pattern: string): void {
    const action = context.session?.settings.defaultAlertAction;
    if ((action !== 'accept' && action !== 'dismiss') || /alert/i.test(pattern)) return;
    if (!this.phone.alert()) return;
    if (action === 'accept') this.phone.acceptAlert();
    else this.phone.dismissAlert();
  }

  private errorReply(error: unknown): JsonReply {
    const wdaError =
      error instanceof WdaError ? error : new WdaError('unknown error', error instanceof Error ? error.message : String(error));
    return {
      status: wdaError.status,
      payload: {
        value: { error: wdaError.error, message: wdaError.message, traceback: TRACEBACK },
        sessionId: this.face.session?.id ?? null,
      },
    };
  }

  private lastResort(response: http.ServerResponse, error: unknown): void {
    try {
      if (response.headersSent) {
        response.destroy();
        return;
      }
      const reply = this.errorReply(error);
      response.writeHead(reply.status, headers('application/json;charset=UTF-8'));
      response.end(JSON.stringify(reply.payload, null, 2));
    } catch {
      response.destroy();
    }
  }
}

function headers(contentType: string): http.OutgoingHttpHeaders {
  return { 'Content-Type': contentType, Server: 'WebDriverAgent/1.0' };
}

function send(response: http.ServerResponse, status: number, contentType: string, body: string): Promise<void> {
  return new Promise((resolve) => {
    if (response.destroyed) {
      resolve();
      return;
    }
    response.writeHead(status, { ...headers(contentType), 'Content-Length': Buffer.byteLength(body) });
    response.end(body, () => resolve());
    response.once('close', () => resolve());
  });
}

/** Splits the request target into path and query without normalizing the path (`//x` stays `//x`). */
function parseUrl(raw: string | undefined): { path: string; query: Record<string, string> } {
  const target = raw ?? '/';
  const at = target.indexOf('?');
  const path = at < 0 ? target : target.slice(0, at);
  const query: Record<string, string> = {};
  if (at >= 0) {
    try {
      for (const [key, value] of new URLSearchParams(target.slice(at + 1))) query[key] = value;
    } catch {
      // an unparseable query counts as none
    }
  }
  return { path: path.startsWith('/') ? path : `/${path}`, query };
}

/** The body as text; null when it is too large (the connection is then dropped). */
function readBody(request: http.IncomingMessage): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', () => resolve(null));
    request.on('aborted', () => resolve(null));
  });
}

/** `application/json` or any `…+json` type, whatever its parameters (`; charset=utf-8`). */
function isJsonMediaType(contentType: string): boolean {
  const type = contentType.split(';', 1)[0].trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(type);
}

/**
 * A request body: none, or JSON sent as JSON. Unlike a real WDA (which parses any body as JSON and counts one
 * that does not parse as `{}`), anything else is refused with `400 invalid argument`, so a web page cannot send
 * a command as a "simple" text/plain request.
 */
function parseJsonBody(contentType: string | undefined, text: string): { json: unknown } | WdaError {
  if (text.trim() === '') return { json: undefined };
  if (contentType === undefined || !isJsonMediaType(contentType)) {
    const got = contentType === undefined ? 'none' : contentType.slice(0, 64);
    return invalidArgument(`The request body must be JSON sent with Content-Type: application/json (got ${got}).`);
  }
  try {
    return { json: JSON.parse(text) };
  } catch {
    return invalidArgument('The request body is not valid JSON.');
  }
}

/** The command arguments: a JSON object, or `{}` for anything else. */
function asObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
