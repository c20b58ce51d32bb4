import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * True when no token is configured, or the request carries `Authorization: Bearer <token>`. The comparison is
 * constant-time over SHA-256 digests, so neither the content nor the length of the token leaks through timing.
 */
export function checkBearerToken(req: IncomingMessage, token: string | undefined): boolean {
  if (!token) return true;
  const header = req.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match) return false;
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(match[1]), digest(token));
}
