import { ERROR_CODES, type ErrorCode } from './codes';

/** One problem with one input field, as listed in an `invalid_argument` error. */
export interface FieldIssue {
  /** Dotted path of the field, e.g. `body.x` or `devices.0.url`; empty for the input as a whole. */
  path: string;
  message: string;
}

export interface ApexErrorOptions {
  /** What the caller can do about it, e.g. "call list_devices to see the ids". */
  hint?: string;
  /** Overrides the code's default. */
  retryable?: boolean;
  /** When asking again makes sense (REST sends it as `Retry-After`), for a state expected to pass. */
  retryAfterSeconds?: number;
  /** The original failure: kept for logs, never shown to a client. */
  cause?: unknown;
  /** Bad fields, for `invalid_argument`. */
  issues?: FieldIssue[];
}

/** The only error type that crosses a layer boundary. Its message is written for a model to act on. */
export class ApexError extends Error {
  override readonly name = 'ApexError';
  readonly code: ErrorCode;
  readonly hint?: string;
  readonly retryable: boolean;
  readonly retryAfterSeconds?: number;
  readonly issues?: FieldIssue[];

  constructor(code: ErrorCode, message: string, options: ApexErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.hint = options.hint;
    this.retryable = options.retryable ?? ERROR_CODES[code].retryable;
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
    this.issues = options.issues;
  }
}

export function isApexError(error: unknown): error is ApexError {
  return error instanceof ApexError;
}

/** Wraps anything thrown into an ApexError; unknown failures become `internal` with a neutral message. */
export function toApexError(error: unknown): ApexError {
  if (isApexError(error)) return error;
  return new ApexError('internal', 'An internal error occurred.', { cause: error });
}

export function invalidArgument(message: string, issues?: FieldIssue[], hint?: string): ApexError {
  return new ApexError('invalid_argument', message, { issues, hint });
}
