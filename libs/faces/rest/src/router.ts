import { invalidArgument } from '@apex/errors';
import { HttpProblem } from './problem';

export interface RouteMatch<R> {
  route: R;
  /** Path parameters, URL-decoded. */
  params: Record<string, string>;
}

interface CompiledRoute<R> {
  route: R;
  method: string;
  segments: { literal?: string; param?: string }[];
}

/** Longest value a path parameter may have once decoded (device ids are short names). */
const MAX_PARAM_LENGTH = 128;

/**
 * A tiny method + path-template router. `match` answers the route, or throws the 404 / 405 problem; path
 * parameters are URL-decoded and checked (non-empty, short, no control characters) before anything sees them.
 */
export class Router<R extends { method: string; path: string }> {
  private readonly compiled: CompiledRoute<R>[];

  constructor(routes: readonly R[]) {
    this.compiled = routes.map((route) => ({
      route,
      method: route.method,
      segments: splitPath(route.path).map((segment) => {
        const param = /^\{(\w+)\}$/.exec(segment)?.[1];
        return param ? { param } : { literal: segment };
      }),
    }));
  }

  match(method: string, pathname: string): RouteMatch<R> {
    const segments = splitPath(pathname);
    const allowed = new Set<string>();
    for (const candidate of this.compiled) {
      const raw = matchSegments(candidate.segments, segments);
      if (!raw) continue;
      if (candidate.method !== method) {
        allowed.add(candidate.method);
        continue;
      }
      return { route: candidate.route, params: decodeParams(raw) };
    }
    if (allowed.size > 0) {
      const allow = [...allowed].sort().join(', ');
      throw new HttpProblem('method_not_allowed', `${method} is not allowed on ${pathname}; use ${allow}.`, {
        Allow: allow,
      });
    }
    throw new HttpProblem('route_not_found', `No route ${method} ${pathname}.`, {}, 'See GET /docs or GET /openapi.json for the routes.');
  }
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

function splitPath(path: string): string[] {
  return path.split('/').slice(1);
}

function matchSegments(template: CompiledRoute<unknown>['segments'], actual: string[]): Record<string, string> | null {
  if (template.length !== actual.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < template.length; i++) {
    const { literal, param } = template[i];
    if (param !== undefined) params[param] = actual[i];
    else if (literal !== actual[i]) return null;
  }
  return params;
}

function decodeParams(raw: Record<string, string>): Record<string, string> {
  const decoded: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    let text: string;
    try {
      text = decodeURIComponent(value);
    } catch {
      throw invalidArgument(`The path parameter ${name} is not valid URL encoding.`, [
        { path: name, message: 'is not valid URL encoding' },
      ]);
    }
    const problem =
      text.length === 0
        ? 'must not be empty'
        : text.length > MAX_PARAM_LENGTH
          ? `must be at most ${MAX_PARAM_LENGTH} characters`
          : hasControlCharacter(text)
            ? 'must not contain control characters'
            : undefined;
    if (problem) throw invalidArgument(`Invalid path parameter ${name}: ${problem}.`, [{ path: name, message: problem }]);
    decoded[name] = text;
  }
  return decoded;
}
