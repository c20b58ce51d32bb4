import { ApexError, isApexError } from '@apex/errors';
import {
  isDeviceUnreachable,
  WebDriverMalformedReply,
  WebDriverProtocolError,
  WebDriverTransportError,
} from './http/webdriver-errors';

/**
 * Translates any failure of a call through the automation server into an ApexError with the same semantic
 * codes as the direct driver, in neutral words that name the device and say what to do. The server's text
 * and stack trace stay in `cause` (logs only).
 */
export function translateError(error: unknown, deviceId: string, action: string): ApexError {
  if (isApexError(error)) return error;
  if (error instanceof WebDriverTransportError) return fromTransport(error, deviceId, action);
  if (error instanceof WebDriverMalformedReply) {
    return new ApexError('device_error', `Device ${deviceId} sent a reply that could not be read while trying to ${action}.`, {
      hint: 'Retry; if it keeps happening, restart the automation server of this device.',
      cause: error,
    });
  }
  if (error instanceof WebDriverProtocolError) return fromProtocol(error, deviceId, action);
  return new ApexError('device_error', `Device ${deviceId} failed to ${action}.`, { cause: error });
}

function fromTransport(error: WebDriverTransportError, deviceId: string, action: string): ApexError {
  switch (error.failure) {
    case 'response_timeout':
      return new ApexError('device_timeout', `Device ${deviceId} did not answer in time while trying to ${action}.`, {
        hint: 'The device or its automation server may be busy or stuck; retry, and check them if it keeps happening.',
        cause: error,
      });
    case 'aborted':
      return new ApexError('device_timeout', `The request to device ${deviceId} to ${action} was cancelled.`, { cause: error });
    default:
      // The automation server itself does not answer (as opposed to the phone behind it: see fromProtocol).
      return new ApexError(
        'device_offline',
        `Device ${deviceId} is not reachable: the automation server configured for it does not answer; check that the server is running at its configured address, then retry.`,
        { hint: 'Start the automation server (or fix its address in the configuration); Apex connects again on its own once it answers.', cause: error },
      );
  }
}

function fromProtocol(error: WebDriverProtocolError, deviceId: string, action: string): ApexError {
  if (isDeviceUnreachable(error)) {
    return new ApexError(
      'device_offline',
      `Device ${deviceId} is not reachable: its automation server is up but cannot reach the phone; check that the phone is on and connected and that its automation agent is running, then retry.`,
      { hint: 'Check the phone, its connection and its automation agent; Apex connects again on its own once it is back.', cause: error },
    );
  }
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
    case 'session not created':
      return new ApexError('device_error', `Device ${deviceId} could not start an automation session to ${action}.`, {
        hint: 'Check the device entry of the configuration (server address and capabilities) and that the phone is ready.',
        cause: error,
      });
    default:
      return new ApexError('device_error', `Device ${deviceId} reported an error while trying to ${action}.`, {
        hint: 'Retry; if it keeps failing, look at the phone to see what is on screen.',
        cause: error,
      });
  }
}
