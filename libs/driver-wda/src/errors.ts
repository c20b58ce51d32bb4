import { ApexError, isApexError } from '@apex/errors';
import { WdaMalformedReply, WdaProtocolError, WdaTransportError } from './http/wda-errors';

/**
 * Translates any failure of a WDA call into an ApexError whose message names the device and says what to
 * do, in neutral words. WDA's own text and trace stay in `cause` (for logs) only.
 */
export function translateError(error: unknown, deviceId: string, action: string): ApexError {
  if (isApexError(error)) return error;
  if (error instanceof WdaTransportError) return fromTransport(error, deviceId, action);
  if (error instanceof WdaMalformedReply) {
    return new ApexError('device_error', `Device ${deviceId} sent a reply that could not be read while trying to ${action}.`, {
      hint: 'Retry; if it keeps happening, restart the automation server on the phone.',
      cause: error,
    });
  }
  if (error instanceof WdaProtocolError) return fromProtocol(error, deviceId, action);
  return new ApexError('device_error', `Device ${deviceId} failed to ${action}.`, { cause: error });
}

function fromTransport(error: WdaTransportError, deviceId: string, action: string): ApexError {
  switch (error.failure) {
    case 'response_timeout':
      return new ApexError('device_timeout', `Device ${deviceId} did not answer in time while trying to ${action}.`, {
        hint: 'The device may be busy or stuck; retry, and check the phone if it keeps happening.',
        cause: error,
      });
    case 'aborted':
      return new ApexError('device_timeout', `The request to device ${deviceId} to ${action} was cancelled.`, { cause: error });
    default:
      return new ApexError(
        'device_offline',
        `Device ${deviceId} is not reachable at its configured address; check that the phone is on and connected and that its automation server is running, then retry.`,
        { hint: 'Check the phone, its connection and its automation server; Apex connects again on its own once it is back.', cause: error },
      );
  }
}

function fromProtocol(error: WdaProtocolError, deviceId: string, action: string): ApexError {
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
