/**
 * The page's only way to the server: the public REST API, with the bearer token when one was given. Every
 * failure becomes an `ApiError` carrying the problem's semantic message and hint.
 */

export interface Problem {
  code: string;
  detail: string;
  hint?: string;
  status: number;
}

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly hint?: string,
    readonly status = 0,
  ) {
    super(message);
  }
}

const TOKEN_KEY = 'apex.token';

/** The token lives in memory and in this tab's sessionStorage only: never in a URL or a cookie. */
export const tokenStore = {
  get(): string | undefined {
    return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
  },
  set(token: string | undefined): void {
    if (token) sessionStorage.setItem(TOKEN_KEY, token);
    else sessionStorage.removeItem(TOKEN_KEY);
  },
};

type Listener = () => void;
const unauthorizedListeners = new Set<Listener>();

/** Called whenever the server answers 401: the page asks for the token again. */
export function onUnauthorized(listener: Listener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

export function authHeaders(): Record<string, string> {
  const token = tokenStore.get();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

async function errorFrom(res: Response): Promise<ApiError> {
  if (res.status === 401) for (const listener of unauthorizedListeners) listener();
  try {
    const problem = (await res.json()) as Partial<Problem>;
    return new ApiError(problem.code ?? 'http_error', problem.detail ?? `HTTP ${res.status}`, problem.hint, res.status);
  } catch {
    return new ApiError('http_error', `The server answered HTTP ${res.status}.`, undefined, res.status);
  }
}

/** A raw request with the token; throws an ApiError for any non-2xx answer. */
export async function request(method: 'GET' | 'POST', path: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers: { ...authHeaders(), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
      cache: 'no-store',
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError('network', 'The Apex server cannot be reached.', 'Is `apex serve` still running?');
  }
  if (!res.ok) throw await errorFrom(res);
  return res;
}

export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  return (await (await request('GET', path, undefined, signal)).json()) as T;
}

export async function postJson<T>(path: string, body: unknown = {}, signal?: AbortSignal): Promise<T> {
  return (await (await request('POST', path, body, signal)).json()) as T;
}

export function devicePath(device: string, rest = ''): string {
  return `/devices/${encodeURIComponent(device)}${rest}`;
}
