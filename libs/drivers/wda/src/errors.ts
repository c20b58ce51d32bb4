import type { ApexError } from '@apex/errors';
import { translateWebDriverFailure, type FailureWording } from '@apex/webdriver-http';

/** WDA runs on the phone itself: no answer means the phone (or the agent on it) is not reachable. */
export const WDA_WORDING: FailureWording = {
  unreachableMessage: (deviceId) =>
    `Device ${deviceId} is not reachable at its configured address; check that the phone is on and connected and that its automation server is running, then retry.`,
  unreachableHint: 'Check the phone, its connection and its automation server; Apex connects again on its own once it is back.',
  noAnswerHint: 'The device may be busy or stuck; retry, and check the phone if it keeps happening.',
  unreadableReplyHint: 'Retry; if it keeps happening, restart the automation server on the phone.',
};

/** Any failure of a WDA call as an ApexError in neutral words; WDA's own text and trace stay in `cause`. */
export function translateError(error: unknown, deviceId: string, action: string): ApexError {
  return translateWebDriverFailure(error, deviceId, action, WDA_WORDING);
}
