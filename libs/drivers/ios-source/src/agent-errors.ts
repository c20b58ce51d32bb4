import type { HardwareButton } from '@apex/port';
import { ApexError } from '@apex/errors';

/** An error envelope of the on-device agent, as either iOS driver received it (directly or through Appium). */
export interface AgentErrorReply {
  /** The W3C error name. */
  readonly error: string;
  readonly serverMessage: string;
}

/**
 * Launching: the agent answers `invalid argument` for an app that is not installed (the system's
 * open-application service returns nil), so on this route it means "no such app", not a caller mistake.
 */
export function launchFailure(reply: AgentErrorReply, deviceId: string, appId: string): ApexError | undefined {
  if (reply.error !== 'invalid argument') return undefined;
  return new ApexError('app_not_found', `Device ${deviceId} has no app "${appId}" it can launch.`, {
    hint: 'Check the app id (for example com.apple.Preferences); list the running apps to see ids.',
    cause: reply,
  });
}

/** Typing: `invalid element state` means no element has keyboard focus. */
export function typingFailure(reply: AgentErrorReply, deviceId: string): ApexError | undefined {
  if (reply.error !== 'invalid element state') return undefined;
  return new ApexError('element_not_found', `Device ${deviceId}: no text field has keyboard focus, so nothing was typed.`, {
    hint: 'Tap the text field first, then type.',
    cause: reply,
  });
}

/** Buttons: an unknown or absent button is `unknown error` "The button 'x' is not supported…". */
export function buttonFailure(reply: AgentErrorReply, deviceId: string, button: HardwareButton): ApexError | undefined {
  if (!/not supported/i.test(reply.serverMessage)) return undefined;
  return new ApexError('unsupported_operation', `Device ${deviceId} has no ${button} button it can press.`, {
    hint: 'Use another button; volume buttons are not available on every device.',
    cause: reply,
  });
}
