import type { AlertInfo } from '@apex/port';
import { ApexError } from '@apex/errors';
import type { AgentErrorReply } from './agent-errors';

/*
 * The device controls' error envelopes, as either iOS driver receives them (Appium passes the agent's
 * through): what each means on its route (WDA-PROTOCOL.md §7).
 */

/**
 * Opening a URL: a scheme no app handles fails as `unknown error` with an OS text that differs by iOS
 * version (or `invalid argument`): any failure of the route that is not about the connection is the address.
 */
export function urlFailure(reply: AgentErrorReply, deviceId: string, url: string): ApexError | undefined {
  if (reply.error !== 'unknown error' && reply.error !== 'invalid argument') return undefined;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1] ?? url;
  return new ApexError('invalid_argument', `Device ${deviceId} has no app that opens "${scheme}:" addresses.`, {
    hint: 'Use an http(s) address, or the scheme of an app installed on the device (for example maps:// or prefs:).',
    cause: reply,
  });
}

/** Rotating: `unknown error` "Unable To Rotate Device" — the app (or the home screen) does not turn. */
export function rotationFailure(reply: AgentErrorReply, deviceId: string, orientation: string): ApexError | undefined {
  if (!/unable to rotate/i.test(reply.serverMessage)) return undefined;
  return new ApexError('device_error', `Device ${deviceId} could not turn to ${orientation}.`, {
    hint: 'The app on screen (or the home screen, which stays portrait on an iPhone) does not support that orientation; open an app that does, then retry.',
    cause: reply,
  });
}

/** Hiding the keyboard: `invalid element state` when none of the keys tried hides it. */
export function keyboardFailure(reply: AgentErrorReply, deviceId: string): ApexError | undefined {
  if (reply.error !== 'invalid element state') return undefined;
  return new ApexError('device_error', `Device ${deviceId} could not hide the keyboard: it shows no key that hides it.`, {
    hint: "Tap outside the text field, or the screen's own Done button, to end editing.",
    cause: reply,
  });
}

/** Alerts: `no such alert` (no alert shown), or `invalid element state` for a label the alert lacks. */
export function alertFailure(reply: AgentErrorReply, deviceId: string, button?: string): ApexError | undefined {
  if (reply.error === 'no such alert') {
    return new ApexError('element_not_found', `Device ${deviceId} shows no alert to answer.`, {
      hint: 'Read the screen again: the alert may have closed already.',
      cause: reply,
    });
  }
  if (reply.error === 'invalid element state' && button !== undefined) {
    return new ApexError('element_not_found', `Device ${deviceId}: the alert on screen has no button "${button}".`, {
      hint: 'Read the alert again (its buttons are listed) and use one of its labels.',
      cause: reply,
    });
  }
  return undefined;
}

/** The alert's text is its title and message joined by a newline; the buttons come in the alert's order. */
export function alertInfoOf(text: unknown, buttons: unknown): AlertInfo {
  const info: AlertInfo = {
    buttons: Array.isArray(buttons) ? buttons.filter((b): b is string => typeof b === 'string') : [],
  };
  const lines = typeof text === 'string' ? text.split('\n') : [];
  const title = lines[0]?.trim();
  const message = lines.slice(1).join('\n').trim();
  if (title) info.title = title;
  if (message) info.text = message;
  return info;
}

/** The pasteboard's plain text travels as base64 both ways. */
export const pasteboardText = {
  encode: (text: string): string => Buffer.from(text, 'utf8').toString('base64'),
  decode: (value: unknown): string => (typeof value === 'string' ? Buffer.from(value, 'base64').toString('utf8') : ''),
};

/** What the agent calls the orientations (`GET`/`POST /orientation`). */
export const AGENT_ORIENTATIONS = { portrait: 'PORTRAIT', landscape: 'LANDSCAPE' } as const;
