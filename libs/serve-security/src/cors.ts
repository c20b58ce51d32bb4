import type { IncomingMessage, ServerResponse } from 'node:http';
import { isTrustedOrigin } from './request-guard';

/** What a server lets a trusted page do. */
export interface CorsPolicy {
  methods: readonly string[];
  allowHeaders: readonly string[];
  /** Response headers a page may read besides the simple ones. */
  exposeHeaders?: readonly string[];
}

const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * CORS for trusted origins only (loopback pages, or those listed in `allowedOrigins`), the origin echoed back,
 * never `*`. Answers a preflight (OPTIONS with Access-Control-Request-Method) itself and returns true;
 * otherwise only adds the response headers and returns false.
 */
export function applyCors(req: IncomingMessage, res: ServerResponse, policy: CorsPolicy, allowedOrigins: readonly string[] = []): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  res.setHeader('Vary', 'Origin');
  if (!isTrustedOrigin(origin, allowedOrigins)) return false;
  res.setHeader('Access-Control-Allow-Origin', origin);
  if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
    res.writeHead(204, {
      'Access-Control-Allow-Methods': policy.methods.join(', '),
      'Access-Control-Allow-Headers': policy.allowHeaders.join(', '),
      'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_SECONDS),
      'Content-Length': 0,
    });
    res.end();
    return true;
  }
  if (policy.exposeHeaders?.length) res.setHeader('Access-Control-Expose-Headers', policy.exposeHeaders.join(', '));
  return false;
}
