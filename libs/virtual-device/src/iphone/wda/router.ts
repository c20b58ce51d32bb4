import type { Phone } from '../model';
import type { DeviceFace } from './device-face';
import type { Session } from './session';

/**
 * Routes as data (WDA:Routing/FBRoute.m, FBHTTPServer.m). `S` = only under /session/:id, `N` = only without a
 * session, `B` = both. Patterns match case-insensitively, anchored; `:param` matches `[^/]+`.
 */
export type SessionMode = 'S' | 'N' | 'B';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RouteContext {
  phone: Phone;
  face: DeviceFace;
  /** Path parameters merged over query parameters. */
  params: Record<string, string>;
  query: Record<string, string>;
  /** The request body parsed as JSON (an object, else `{}`). */
  body: Record<string, unknown>;
  /** The session addressed by the URL (S routes), or the active session. */
  session: Session | null;
}

/** A response that is not a JSON envelope (e.g. `/health`). */
export class RawResponse {
  constructor(
    readonly status: number,
    readonly contentType: string,
    readonly body: string,
  ) {}
}

export interface Route {
  method: HttpMethod;
  /** Path relative to `/session/:id` for S/B routes, e.g. `/element/:uuid/rect`; `''` is the session itself. */
  pattern: string;
  mode: SessionMode;
  handler: (context: RouteContext) => unknown;
}

interface CompiledRoute {
  route: Route;
  regex: RegExp;
  names: string[];
}

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
  /** The session id from the URL, when the route was reached under /session/:id. */
  sessionId?: string;
}

const SESSION_PREFIX = /^\/session\/([^/]+)(\/.*)?$/i;

function compile(route: Route): CompiledRoute {
  const names: string[] = [];
  const source = route.pattern
    .split('/')
    .map((part) => {
      if (part.startsWith(':')) {
        names.push(part.slice(1));
        return '([^/]+)';
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { route, regex: new RegExp(`^${source}$`, 'i'), names };
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

export class Router {
  private readonly compiled: CompiledRoute[];

  constructor(routes: readonly Route[]) {
    this.compiled = routes.map(compile);
  }

  match(method: string, path: string): RouteMatch | undefined {
    const underSession = SESSION_PREFIX.exec(path);
    const sessionId = underSession ? decode(underSession[1] as string) : undefined;
    const rest = underSession ? (underSession[2] ?? '') : path;
    for (const { route, regex, names } of this.compiled) {
      if (route.method !== method) continue;
      if (underSession ? route.mode === 'N' : route.mode === 'S') continue;
      const match = regex.exec(rest);
      if (!match) continue;
      const params: Record<string, string> = {};
      names.forEach((name, i) => (params[name] = decode(match[i + 1] as string)));
      return { route, params, sessionId };
    }
    return undefined;
  }
}
