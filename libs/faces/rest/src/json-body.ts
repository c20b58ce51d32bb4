import express, { type Request, type Response } from 'express';
import { invalidArgument } from '@apex/errors';
import { HttpProblem } from './problem';

/** `application/json` and any `+json` type, with or without parameters such as charset. */
function isJsonMediaType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const mediaType = contentType.split(';')[0].trim().toLowerCase();
  return mediaType === 'application/json' || /^application\/[\w.+-]+\+json$/.test(mediaType);
}

function declaresBody(req: Request): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

function tooLarge(limit: number): HttpProblem {
  return new HttpProblem('payload_too_large', `The request body is larger than the limit of ${limit} bytes.`, {
    Connection: 'close',
  });
}

/** A body of only whitespace is no body (`{}`), as an empty one is; the parser calls it malformed. */
function isBlankBody(error: unknown): boolean {
  const { type, body } = error as { type?: string; body?: unknown };
  return type === 'entity.parse.failed' && typeof body === 'string' && body.trim() === '';
}

/** The parser's refusals, as the problems a client of this API knows. */
function problemOfParser(error: unknown, limit: number): unknown {
  switch ((error as { type?: string }).type) {
    case 'entity.too.large':
      return tooLarge(limit);
    case 'entity.parse.failed':
      return invalidArgument('The request body is not valid JSON.', [{ path: '', message: 'is not valid JSON' }]);
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new HttpProblem(
        'unsupported_media_type',
        'The request body must be UTF-8 JSON without a content encoding.',
        { 'Accept-Post': 'application/json' },
        'Send the body as JSON with the header Content-Type: application/json.',
      );
    default:
      return invalidArgument('The request body could not be read.');
  }
}

/** The input a POST route's body gives; throws the problem of a body it refuses. */
export type JsonBodyReader = (req: Request, res: Response) => Promise<Record<string, unknown>>;

/**
 * Reads the JSON object a POST route takes. No body (or an empty one) is `{}`; a body needs a JSON content type
 * (415 otherwise), at most `limit` bytes (413 as soon as that is known: at once from Content-Length, else at the
 * first byte past it; the rest is not read), must parse (400) and must be an object (400).
 */
export function jsonBodyReader(limit: number): JsonBodyReader {
  // Any JSON value (the object check below gives the clearer message); no compressed bodies (no inflation bombs).
  const parse = express.json({ limit, strict: false, inflate: false, type: () => true });
  return async (req, res) => {
    if (!declaresBody(req)) return {};
    if (!isJsonMediaType(req.headers['content-type'])) {
      throw new HttpProblem(
        'unsupported_media_type',
        `The request body must be application/json, not ${req.headers['content-type'] ?? 'an undeclared type'}.`,
        { 'Accept-Post': 'application/json' },
        'Send the body as JSON with the header Content-Type: application/json.',
      );
    }
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
    await new Promise<void>((resolve, reject) => {
      // The parser reads a refused body to its end before it reports; the 413 goes out at once instead, with
      // Connection: close, so that the rest is never read.
      let received = 0;
      const count = (chunk: Buffer) => {
        received += chunk.length;
        if (received > limit) reject(tooLarge(limit));
      };
      req.on('data', count);
      parse(req, res, (error?: unknown) => {
        req.off('data', count);
        if (error && !isBlankBody(error)) reject(problemOfParser(error, limit));
        else resolve();
      });
    });
    const parsed: unknown = req.body;
    if (parsed === undefined) return {};
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw invalidArgument('The request body must be a JSON object.', [{ path: '', message: 'must be a JSON object' }]);
    }
    return parsed as Record<string, unknown>;
  };
}
