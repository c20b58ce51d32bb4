import { ApexError } from '@apex/errors';
import { translateWebDriverFailure, WebDriverProtocolError, type FailureWording } from '@apex/webdriver-http';

/**
 * The server is up but the device behind it is not: the automation server could not forward the command
 * to the on-device agent. Appium reports that as `500 unknown error` "Could not proxy command to the remote
 * server. Original error: connect ECONNREFUSED …" (or `socket hang up`, a timeout, …), also inside
 * "Unable to start … session" when the session is being created. Its own session stays alive.
 */
const DEVICE_UNREACHABLE =
  /Could not proxy command to the remote server|\b(?:ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|EHOSTDOWN|ETIMEDOUT|EPIPE)\b|socket hang up/;

/**
 * A Selenium Grid hub whose queued session request found no free matching slot within its
 * `--session-request-timeout`: another client holds the phone (Grid 4.48: "Could not start a new session. New
 * session request timed out").
 */
const GRID_QUEUE_TIMED_OUT = /New session request timed out/;

export function isDeviceUnreachable(error: unknown): boolean {
  return (
    error instanceof WebDriverProtocolError &&
    (error.error === 'unknown error' || error.error === 'session not created') &&
    DEVICE_UNREACHABLE.test(error.serverMessage)
  );
}

/** No answer here means the automation server itself (as opposed to the phone behind it: see `protocol`). */
export const APPIUM_WORDING: FailureWording = {
  unreachableMessage: (deviceId) =>
    `Device ${deviceId} is not reachable: the automation server configured for it does not answer; check that the server is running at its configured address, then retry.`,
  unreachableHint: 'Start the automation server (or fix its address in the configuration); Apex connects again on its own once it answers.',
  noAnswerHint: 'The device or its automation server may be busy or stuck; retry, and check them if it keeps happening.',
  unreadableReplyHint: 'Retry; if it keeps happening, restart the automation server of this device.',
  protocol(error, deviceId, action) {
    if (isDeviceUnreachable(error)) {
      return new ApexError(
        'device_offline',
        `Device ${deviceId} is not reachable: its automation server is up but cannot reach the phone; check that the phone is on and connected and that its automation agent is running, then retry.`,
        { hint: 'Check the phone, its connection and its automation agent; Apex connects again on its own once it is back.', cause: error },
      );
    }
    if (error.error === 'session not created' && GRID_QUEUE_TIMED_OUT.test(error.serverMessage)) {
      return new ApexError('device_busy', `Device ${deviceId} is busy: its device lab gave the phone to another client, so no session to ${action} could start.`, {
        hint: 'Retry later, or pick a free device (list_devices shows which are busy).',
        cause: error,
      });
    }
    if (error.error === 'session not created') {
      return new ApexError('device_error', `Device ${deviceId} could not start an automation session to ${action}.`, {
        hint: 'Check the device entry of the configuration (server address and capabilities) and that the phone is ready.',
        cause: error,
      });
    }
    return undefined;
  },
};

/**
 * Any failure of a call through the automation server as an ApexError with the same semantic codes as the
 * direct driver, in neutral words; the server's text and stack trace stay in `cause` (logs only).
 */
export function translateError(error: unknown, deviceId: string, action: string): ApexError {
  return translateWebDriverFailure(error, deviceId, action, APPIUM_WORDING);
}
