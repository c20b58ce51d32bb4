/** Failures below the protocol: the request got no complete HTTP answer. */
export type TransportFailure = 'refused' | 'unreachable' | 'connect_timeout' | 'reset' | 'response_timeout' | 'aborted';

export class WebDriverTransportError extends Error {
  override readonly name = 'WebDriverTransportError';
  constructor(
    readonly failure: TransportFailure,
    message: string,
    /** The request went out on a kept-alive socket that the server may have closed meanwhile. */
    readonly reusedSocket = false,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The server answered with the error envelope `{value:{error, message, traceback|stacktrace}}`. */
export class WebDriverProtocolError extends Error {
  override readonly name = 'WebDriverProtocolError';
  constructor(
    readonly httpStatus: number,
    /** The W3C error name, e.g. "no such element", "invalid session id", "unknown error". */
    readonly error: string,
    readonly serverMessage: string,
    /** WebDriverAgent sends `traceback`; Appium sends `stacktrace`. Logs only. */
    readonly trace: string | undefined,
    /** e.g. `POST /session/:id/execute/sync (mobile: tap)` — for logs only. */
    readonly route: string,
  ) {
    super(`${route} → ${httpStatus} ${error}: ${serverMessage}`);
  }
}

/** A reply that is not the JSON envelope a WebDriver-style server always sends. */
export class WebDriverMalformedReply extends Error {
  override readonly name = 'WebDriverMalformedReply';
  constructor(
    readonly httpStatus: number,
    readonly route: string,
    readonly excerpt: string,
  ) {
    super(`${route} → ${httpStatus}: unreadable reply ${JSON.stringify(excerpt)}`);
  }
}

const REFUSED = new Set(['ECONNREFUSED']);
const RESET = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE']);
const UNREACHABLE = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN', 'ENOTFOUND', 'EAI_AGAIN', 'EADDRNOTAVAIL']);

/** Classifies a Node socket/HTTP error. */
export function classifyNodeError(error: unknown, reusedSocket: boolean): WebDriverTransportError {
  if (error instanceof WebDriverTransportError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const name = (error as { name?: unknown } | null)?.name;
  const message = error instanceof Error ? error.message : String(error);
  let failure: TransportFailure = 'reset';
  if (typeof code === 'string' && REFUSED.has(code)) failure = 'refused';
  else if (typeof code === 'string' && UNREACHABLE.has(code)) failure = 'unreachable';
  else if (code === 'ABORT_ERR' || name === 'AbortError') failure = 'aborted';
  else if (code === 'ETIMEDOUT') failure = 'connect_timeout';
  else if (typeof code === 'string' && RESET.has(code)) failure = 'reset';
  return new WebDriverTransportError(failure, message, reusedSocket, { cause: error });
}

/** The server no longer knows the session (it restarted, timed it out, or another client replaced it). */
export function isInvalidSession(error: unknown): error is WebDriverProtocolError {
  return error instanceof WebDriverProtocolError && error.error === 'invalid session id';
}
