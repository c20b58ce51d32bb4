import type { HardwareButton } from '@apex/port';
import { ApexError } from '@apex/errors';

/** An error envelope of the on-device agent, as either iOS driver received it (directly or through Appium). */
export interface AgentErrorReply {
  /** The W3C error name. */
  readonly error: string;
  readonly serverMessage: string;
}

/**
 * What the agent says, in any of its forms, when an app cannot be launched (WDA-PROTOCOL.md, "Apps" and
 * `POST /session`): `Cannot launch X application…` (as `session not created`, or wrapped by Appium in an
 * `unknown error`), the system's open-application service answering nil for the bundle id, or XCTest's
 * "Failed to launch". Plain substring tests: the message is the device's text, of any length.
 */
const LAUNCH_FAILURE_SIGNS: readonly (readonly string[])[] = [
  ['cannot launch', 'application'],
  ['failed to launch'],
  ['fbsopenapplicationserviceerrordomain'],
  ['returned nil for'],
  ['is not installed'],
];

/**
 * Launching: an app that is not installed or cannot start. On the launch route the agent answers
 * `invalid argument` for an app that is not installed (the open-application service returns nil), so there
 * it means "no such app", not a caller mistake; the other forms are recognised by their message.
 */
export function launchFailure(reply: AgentErrorReply, deviceId: string, appId: string): ApexError | undefined {
  if (reply.error !== 'invalid argument' && !isLaunchFailureMessage(reply.serverMessage)) return undefined;
  return new ApexError('app_not_found', `Device ${deviceId} has no app "${appId}" it can launch.`, {
    hint: 'Check the app id (for example com.apple.Preferences); list the running apps to see ids.',
    cause: reply,
  });
}

function isLaunchFailureMessage(message: string): boolean {
  const text = message.toLowerCase();
  return LAUNCH_FAILURE_SIGNS.some((words) => words.every((word) => text.includes(word)));
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

/** The buttons an iPhone has (the others are Android's system buttons). */
export type IPhoneButton = Exclude<HardwareButton, 'back' | 'recents'>;

const IPHONE_LACKS: Record<Exclude<HardwareButton, IPhoneButton>, { name: string; hint: string }> = {
  back: { name: 'Back', hint: "Tap the app's own back control (usually at the top left), or swipe right from the screen's left edge." },
  recents: { name: 'Recents', hint: 'Launch the app you want by its name or id instead.' },
};

/** iPhones have no Back or Recents button: both iOS drivers refuse them before asking the device. */
export function assertIPhoneButton(deviceId: string, button: HardwareButton): asserts button is IPhoneButton {
  if (button !== 'back' && button !== 'recents') return;
  const { name, hint } = IPHONE_LACKS[button];
  throw new ApexError('unsupported_operation', `Device ${deviceId} is an iPhone, which has no ${name} button.`, { hint });
}
