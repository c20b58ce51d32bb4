import { ApexError, isApexError } from '@apex/errors';
import { WebDriverMalformedReply, WebDriverProtocolError, WebDriverTransportError } from './errors';

/** What differs between drivers when their failures are put into words. */
export interface FailureWording {
  /** device_offline when the server itself gives no answer (refused, unreachable, reset, no connection). */
  unreachableMessage(deviceId: string): string;
  unreachableHint: string;
  /** device_timeout when the server took the request but sent no complete reply in time. */
  noAnswerHint: string;
  /** device_error when the reply is not the envelope. */
  unreadableReplyHint: string;
  /** The driver's own reading of an error envelope, tried first; `undefined` falls back to the W3C name. */
  protocol?(error: WebDriverProtocolError, deviceId: string, action: string): ApexError | undefined;
}

/**
 * Translates any failure of a call to a WebDriver-style server into an ApexError whose message names the
 * device and says what to do, in neutral words. The server's own text and trace stay in `cause` (logs only).
 */
export function translateWebDriverFailure(error: unknown, deviceId: string, action: string, wording: FailureWording): ApexError {
  if (isApexError(error)) return error;
  if (error instanceof WebDriverTransportError) return fromTransport(error, deviceId, action, wording);
  if (error instanceof WebDriverMalformedReply) {
    return new ApexError('device_error', `Device ${deviceId} sent a reply that could not be read while trying to ${action}.`, {
      hint: wording.unreadableReplyHint,
      cause: error,
    });
  }
  if (error instanceof WebDriverProtocolError) {
    return wording.protocol?.(error, deviceId, action) ?? fromProtocol(error, deviceId, action);
  }
  return new ApexError('device_error', `Device ${deviceId} failed to ${action}.`, { cause: error });
}

function fromTransport(error: WebDriverTransportError, deviceId: string, action: string, wording: FailureWording): ApexError {
  switch (error.failure) {
    case 'response_timeout':
      return new ApexError('device_timeout', `Device ${deviceId} did not answer in time while trying to ${action}.`, {
        hint: wording.noAnswerHint,
        cause: error,
      });
    case 'aborted':
      return new ApexError('device_timeout', `The request to device ${deviceId} to ${action} was cancelled.`, { cause: error });
    default:
      return new ApexError('device_offline', wording.unreachableMessage(deviceId), { hint: wording.unreachableHint, cause: error });
  }
}

/** By the W3C error name. */
function fromProtocol(error: WebDriverProtocolError, deviceId: string, action: string): ApexError {
  switch (error.error) {
    case 'no such element':
    case 'stale element reference':
    case 'no such alert':
      return new ApexError('element_not_found', `Device ${deviceId}: the element needed to ${action} is not on the screen.`, {
        hint: 'Read the screen again and use what is there now.',
        cause: error,
      });
    case 'invalid argument':
    case 'invalid coordinates':
    case 'invalid selector':
      return new ApexError('invalid_argument', `Device ${deviceId} rejected the arguments to ${action}.`, {
        hint: 'Check the values (points on screen, app ids) and retry.',
        cause: error,
      });
    case 'timeout':
    case 'script timeout':
      return new ApexError('device_timeout', `Device ${deviceId} timed out while trying to ${action}.`, {
        hint: 'Retry; the device may be busy.',
        cause: error,
      });
    case 'unknown command':
    case 'unknown method':
    case 'unsupported operation':
      return new ApexError('unsupported_operation', `Device ${deviceId} cannot ${action}.`, { cause: error });
    case 'invalid session id':
      return new ApexError('device_error', `Device ${deviceId} lost its automation session while trying to ${action}.`, {
        hint: 'Retry; Apex opens a new session on the next call.',
        cause: error,
      });
    default:
      return new ApexError('device_error', `Device ${deviceId} reported an error while trying to ${action}.`, {
        hint: 'Retry; if it keeps failing, look at the phone to see what is on screen.',
        cause: error,
      });
  }
}

/**
 * Runs `run`; an error envelope that `meaning` reads as something on this route (an unknown app, no alert…)
 * leaves as that ApexError, anything else as it came (for the driver's guard to translate).
 */
export async function withRouteMeaning<T>(run: () => Promise<T>, meaning: (error: WebDriverProtocolError) => ApexError | undefined): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof WebDriverProtocolError) throw meaning(error) ?? error;
    throw error;
  }
}
