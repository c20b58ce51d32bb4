/**
 * WDA's error names and the HTTP status each one travels with (WDA:Routing/FBCommandStatus.m).
 * A handler throws a `WdaError`; the server turns it into the error envelope.
 */
export const WDA_ERROR_STATUS = {
  'invalid session id': 404,
  'no such element': 404,
  'stale element reference': 404,
  'unknown command': 404,
  'no such alert': 404,
  'invalid argument': 400,
  'invalid element state': 400,
  'invalid selector': 400,
  'element not visible': 400,
  'unknown error': 500,
  'session not created': 500,
  'unable to capture screen': 500,
  'unsupported operation': 500,
  timeout: 408,
} as const;

export type WdaErrorName = keyof typeof WDA_ERROR_STATUS;

export class WdaError extends Error {
  override readonly name = 'WdaError';
  constructor(
    readonly error: WdaErrorName,
    message: string,
  ) {
    super(message);
  }

  get status(): number {
    return WDA_ERROR_STATUS[this.error];
  }
}

export const invalidArgument = (message: string) => new WdaError('invalid argument', message);
export const unknownError = (message: string) => new WdaError('unknown error', message);
export const invalidSelector = (message: string) => new WdaError('invalid selector', message);

/** `/alert/text` and `/wda/alert/buttons` with no alert. */
export const NO_ALERT_MESSAGE = 'An attempt was made to operate on a modal dialog when one was not open';
/** `/alert/accept` and `/alert/dismiss` with no alert. */
export const NO_ALERT_OPEN_MESSAGE = 'No alert is open';
