/** Failures below the protocol: the request did not get a complete HTTP answer. */
export type TransportFailure =
  | 'refused'
  | 'unreachable'
  | 'connect_timeout'
  | 'reset'
  | 'response_timeout'
  | 'aborted';

export class WdaTransportError extends Error {
  override readonly name = 'WdaTransportError';
  constructor(
    readonly failure: TransportFailure,
    message: string,
    /** The request went out on a kept-alive socket that may have been closed by the server meanwhile. */
    readonly reusedSocket = false,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** WDA answered with its error envelope `{value:{error,message,traceback}}`. */
export class WdaProtocolError extends Error {
  override readonly name = 'WdaProtocolError';
  constructor(
    readonly httpStatus: number,
    /** The W3C error name, e.g. "no such element", "invalid session id". */
    readonly error: string,
    readonly wdaMessage: string,
    /** WDA sends `traceback`; Appium's proxy sends `stacktrace`. */
    readonly traceback: string | undefined,
    readonly route: string,
  ) {
    super(`${route} → ${httpStatus} ${error}: ${wdaMessage}`);
  }
}

/** A reply that is not the JSON envelope WDA always sends. */
export class WdaMalformedReply extends Error {
  override readonly name = 'WdaMalformedReply';
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
export function classifyNodeError(error: unknown, reusedSocket: boolean): WdaTransportError {
  if (error instanceof WdaTransportError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const name = (error as { name?: unknown } | null)?.name;
  const message = error instanceof Error ? error.message : String(error);
  let failure: TransportFailure = 'reset';
  if (typeof code === 'string' && REFUSED.has(code)) failure = 'refused';
  else if (typeof code === 'string' && UNREACHABLE.has(code)) failure = 'unreachable';
  else if (code === 'ABORT_ERR' || name === 'AbortError') failure = 'aborted';
  else if (code === 'ETIMEDOUT') failure = 'connect_timeout';
  else if (typeof code === 'string' && RESET.has(code)) failure = 'reset';
  return new WdaTransportError(failure, message, reusedSocket, { cause: error });
}
