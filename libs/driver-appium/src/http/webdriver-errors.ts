/** Failures below the protocol: the request to the automation server got no complete HTTP answer. */
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

/** The server answered with the W3C error envelope `{value:{error, message, stacktrace}}`. */
export class WebDriverProtocolError extends Error {
  override readonly name = 'WebDriverProtocolError';
  constructor(
    readonly httpStatus: number,
    /** The W3C error name, e.g. "no such element", "invalid session id", "unknown error". */
    readonly error: string,
    readonly serverMessage: string,
    readonly stacktrace: string | undefined,
    /** e.g. `POST /session/:id/execute/sync (mobile: tap)` — for logs only. */
    readonly route: string,
  ) {
    super(`${route} → ${httpStatus} ${error}: ${serverMessage}`);
  }
}

/** A reply that is not the JSON envelope a WebDriver server always sends. */
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

/**
 * The server is up but the device behind it is not: the automation server could not forward the command
 * to the on-device agent. Appium reports that as `500 unknown error` "Could not proxy command to the remote
 * server. Original error: connect ECONNREFUSED …" (or `socket hang up`, a timeout, …), also inside
 * "Unable to start … session" when the session is being created. Its own session stays alive.
 */
const DEVICE_UNREACHABLE =
  /Could not proxy command to the remote server|\b(?:ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|EHOSTDOWN|ETIMEDOUT|EPIPE)\b|socket hang up/;

export function isDeviceUnreachable(error: unknown): boolean {
  return (
    error instanceof WebDriverProtocolError &&
    (error.error === 'unknown error' || error.error === 'session not created') &&
    DEVICE_UNREACHABLE.test(error.serverMessage)
  );
}

export function isInvalidSession(error: unknown): error is WebDriverProtocolError {
  return error instanceof WebDriverProtocolError && error.error === 'invalid session id';
}
