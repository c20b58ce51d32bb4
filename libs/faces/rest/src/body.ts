import type { IncomingMessage } from 'node:http';
import { invalidArgument } from '@apex/errors';
import { HttpProblem } from './problem';

export { MAX_REQUEST_BODY_BYTES as DEFAULT_BODY_LIMIT_BYTES } from '@apex/serve-security';

/** `application/json` and any `+json` type, with or without parameters such as charset. */
function isJsonMediaType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const mediaType = contentType.split(';')[0].trim().toLowerCase();
  return mediaType === 'application/json' || /^application\/[\w.+-]+\+json$/.test(mediaType);
}

function declaresBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

/**
 * Reads the raw body, refusing it as soon as it is known to pass `limit` bytes: at once when the declared
 * Content-Length says so, otherwise when the running total does. Reading stops there; the connection is
 * closed after the 413 answer so the rest is never consumed.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > limit) {
    return Promise.reject(tooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) {
        cleanup();
        req.pause();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks));
    };
    const onError = () => {
      cleanup();
      reject(invalidArgument('The request body could not be read.'));
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

function tooLarge(limit: number): HttpProblem {
  return new HttpProblem('payload_too_large', `The request body is larger than the limit of ${limit} bytes.`, {
    Connection: 'close',
  });
}

/**
 * The JSON object a POST route takes. No body (or an empty one) is `{}`; a body needs a JSON content type
 * (415 otherwise), must parse (400) and must be an object (400).
 */
export async function readJsonObjectBody(req: IncomingMessage, limit: number): Promise<Record<string, unknown>> {
  if (!declaresBody(req)) return {};
  if (!isJsonMediaType(req.headers['content-type'])) {
    throw new HttpProblem(
      'unsupported_media_type',
      `The request body must be application/json, not ${req.headers['content-type'] ?? 'an undeclared type'}.`,
      { 'Accept-Post': 'application/json' },
      'Send the body as JSON with the header Content-Type: application/json.',
    );
  }
  const raw = await readBody(req, limit);
  const text = raw.toString('utf8').trim();
  if (text === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidArgument('The request body is not valid JSON.', [{ path: '', message: 'is not valid JSON' }]);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw invalidArgument('The request body must be a JSON object.', [{ path: '', message: 'must be a JSON object' }]);
  }
  return parsed as Record<string, unknown>;
}
