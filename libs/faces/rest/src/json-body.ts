import type { Request, Response } from 'express';
import { invalidArgument } from '@apex/errors';
import { readBoundedBody } from '@apex/serve-security';
import { HttpProblem } from './problem';

/** `application/json` and any `+json` type, with or without parameters such as charset. */
function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || /^application\/[\w.+-]+\+json$/.test(mediaType);
}

function declaresBody(req: Request): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

function unsupported(message: string): HttpProblem {
  return new HttpProblem('unsupported_media_type', message, { 'Accept-Post': 'application/json' }, 'Send the body as JSON with the header Content-Type: application/json.');
}

/**
 * What the Content-Type and Content-Encoding headers allow: JSON (any `+json` type), in UTF-8 (the only charset
 * JSON has, RFC 8259), not compressed (no inflation bombs).
 */
function checkRepresentation(req: Request): void {
  const [type = '', ...params] = (req.headers['content-type'] ?? '').split(';');
  if (!isJsonMediaType(type.trim().toLowerCase())) {
    throw unsupported(`The request body must be application/json, not ${req.headers['content-type'] ?? 'an undeclared type'}.`);
  }
  const charset = params
    .map((param) => param.trim().toLowerCase())
    .find((param) => param.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/^"(.*)"$/, '$1');
  const encoding = req.headers['content-encoding']?.trim().toLowerCase();
  if ((charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') || (encoding !== undefined && encoding !== 'identity')) {
    throw unsupported('The request body must be UTF-8 JSON without a content encoding.');
  }
}

/** The input a POST route's body gives; throws the problem of a body it refuses. */
export type JsonBodyReader = (req: Request, res: Response) => Promise<Record<string, unknown>>;

/**
 * Reads the JSON object a POST route takes. No body (or an empty or blank one) is `{}`; a body needs a JSON
 * content type in UTF-8, uncompressed (415 otherwise), at most `limit` bytes (413 as soon as that is known: at
 * once from Content-Length, else at the first byte past it; the rest is not read), must parse (400) and must
 * be an object (400).
 */
export function jsonBodyReader(limit: number): JsonBodyReader {
  return async (req) => {
    if (!declaresBody(req)) return {};
    checkRepresentation(req);
    const read = await readBoundedBody(req, limit);
    if (read.kind === 'too_large') {
      throw new HttpProblem('payload_too_large', `The request body is larger than the limit of ${limit} bytes.`, { Connection: 'close' });
    }
    if (read.kind === 'unreadable') throw invalidArgument('The request body could not be read.');
    // A byte order mark is allowed before UTF-8 JSON; JSON.parse does not skip it.
    const text = read.bytes.toString('utf8').replace(/^\uFEFF/, '');
    if (text.trim() === '') return {};
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
  };
}
