import type { IncomingMessage, ServerResponse } from 'node:http';

/** Headers a browser page may read besides the simple ones (the screenshot size, the auth challenge). */
const EXPOSED_HEADERS = 'X-Image-Width, X-Image-Height, X-Pixels-Per-Point, WWW-Authenticate, Allow';

/**
 * CORS for the origins the server already accepts (loopback pages, or those listed): a local dashboard can read
 * the answers. Call only after the origin check passed. Answers a preflight (OPTIONS with
 * Access-Control-Request-Method) itself and returns true; otherwise only adds the response headers.
 */
export function applyCors(req: IncomingMessage, res: ServerResponse): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Vary', 'Origin');
  if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
    res.writeHead(204, {
      'Access-Control-Allow-Methods': 'GET, POST',
      'Access-Control-Allow-Headers': 'Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id',
      'Access-Control-Max-Age': '600',
      'Content-Length': 0,
    });
    res.end();
    return true;
  }
  res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  return false;
}
