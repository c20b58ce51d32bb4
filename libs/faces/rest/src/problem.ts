import type { ServerResponse } from 'node:http';
import { ERROR_CODES, isApexError, MAX_PUBLIC_TEXT_LENGTH, toPublicError, truncateText } from '@apex/errors';
import type { ErrorCode, FieldIssue } from '@apex/errors';

/**
 * Problems that belong to HTTP itself rather than to a device operation, so they have no ApexError code.
 * They share the problem+json shape and the `type` URI scheme with the semantic codes.
 */
export const HTTP_PROBLEMS = {
  route_not_found: { status: 404, title: 'Route not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  range_not_satisfiable: { status: 416, title: 'Range not satisfiable' },
  forbidden_origin: { status: 403, title: 'Forbidden origin' },
  forbidden_host: { status: 403, title: 'Forbidden host' },
} as const satisfies Record<string, { status: number; title: string }>;

export type HttpProblemCode = keyof typeof HTTP_PROBLEMS;
export type ProblemCode = ErrorCode | HttpProblemCode;

/** Every problem's `type` is this base plus its `code`; /docs lists each one under `#problem-<code>`. */
export const PROBLEM_TYPE_BASE = 'https://apex.dev/problems/';

/** An RFC 9457 problem details object, with Apex's `code`, `hint` and per-field `errors` extensions. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ProblemCode;
  hint?: string;
  retryable?: boolean;
  instance?: string;
  /** Each bad field of a validation problem. */
  errors?: FieldIssue[];
}

/** A transport-level failure: thrown inside the server and turned into a problem in one place. */
export class HttpProblem extends Error {
  override readonly name = 'HttpProblem';
  constructor(
    readonly code: HttpProblemCode,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
    readonly hint?: string,
  ) {
    super(detail);
  }
}

function problemType(code: ProblemCode): string {
  return `${PROBLEM_TYPE_BASE}${code}`;
}

/**
 * The one mapping from anything thrown to a problem: HttpProblems keep their status, everything else
 * goes through `toPublicError` (no stack, no cause, no driver words) and the status table of @apex/errors.
 */
export function problemFrom(error: unknown, instance?: string): Problem {
  if (error instanceof HttpProblem) {
    const spec = HTTP_PROBLEMS[error.code];
    return withoutUndefined({
      type: problemType(error.code),
      title: spec.title,
      status: spec.status,
      // A detail may repeat the client's path or header in full: bounded like every public text.
      detail: truncateText(error.detail, MAX_PUBLIC_TEXT_LENGTH),
      code: error.code,
      hint: error.hint,
      instance,
    });
  }
  const pub = toPublicError(error);
  const spec = ERROR_CODES[pub.code];
  return withoutUndefined({
    type: problemType(pub.code),
    title: spec.title,
    status: spec.httpStatus,
    detail: pub.message,
    code: pub.code,
    hint: pub.hint,
    retryable: pub.retryable,
    instance,
    errors: pub.issues,
  });
}

/** Headers a problem needs besides its body (Allow on 405, WWW-Authenticate on 401, Retry-After on a state expected to pass). */
export function problemHeaders(error: unknown): Record<string, string> {
  if (error instanceof HttpProblem) return error.headers;
  if (isApexError(error) && error.code === 'unauthorized') return { 'WWW-Authenticate': 'Bearer realm="apex"' };
  if (isApexError(error) && error.retryAfterSeconds !== undefined) return { 'Retry-After': String(Math.max(1, Math.ceil(error.retryAfterSeconds))) };
  return {};
}

export function sendProblem(res: ServerResponse, problem: Problem, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(problem);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(problem.status, {
    ...headers,
    'Content-Type': 'application/problem+json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  });
  res.end(body);
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
