import { ApexError } from '@apex/errors';
import type { AlertAction, AlertInfo, Appearance, Orientation } from '@apex/port';
import type { DeviceHub } from '../hub/device-hub';
import { runWith } from './abilities';

/** Opens a web address or an app's URL scheme; the operation's schema has already refused unsafe schemes. */
export async function openUrl(hub: DeviceHub, deviceId: string, url: string): Promise<void> {
  await runWith(hub, deviceId, ['openUrl'], 'open a URL', (driver, signal) => driver.openUrl(url, signal));
}

/** Rotates the screen; every later coordinate is in points of the new orientation. */
export async function setOrientation(hub: DeviceHub, deviceId: string, orientation: Orientation): Promise<void> {
  try {
    await runWith(hub, deviceId, ['setOrientation'], 'change its orientation', (driver, signal) => driver.setOrientation(orientation, signal));
  } finally {
    // Whether or not it turned, the cached width and height may be wrong now: read them again when needed.
    hub.invalidateScreen(deviceId);
  }
}

export async function getClipboard(hub: DeviceHub, deviceId: string): Promise<string> {
  return runWith(hub, deviceId, ['getClipboard'], 'read its clipboard', (driver, signal) => driver.getClipboard(signal));
}

export async function setClipboard(hub: DeviceHub, deviceId: string, text: string): Promise<void> {
  hub.rememberTypedText(deviceId, text);
  await runWith(hub, deviceId, ['setClipboard'], 'set its clipboard', (driver, signal) => driver.setClipboard(text, signal));
}

/** Locks or unlocks the screen (no passcode: a device that asks for one stays locked). */
export async function setLocked(hub: DeviceHub, deviceId: string, locked: boolean): Promise<void> {
  await runWith(hub, deviceId, ['setLocked'], locked ? 'lock its screen' : 'unlock its screen', (driver, signal) => driver.setLocked(locked, signal));
}

export async function hideKeyboard(hub: DeviceHub, deviceId: string): Promise<void> {
  await runWith(hub, deviceId, ['hideKeyboard'], 'hide its keyboard', (driver, signal) => driver.hideKeyboard(signal));
}

export async function setAppearance(hub: DeviceHub, deviceId: string, appearance: Appearance): Promise<void> {
  await runWith(hub, deviceId, ['setAppearance'], 'change its appearance', (driver, signal) => driver.setAppearance(appearance, signal));
}

function noAlert(deviceId: string): ApexError {
  return new ApexError('element_not_found', `No alert is shown on device ${deviceId}.`, {
    hint: 'Take a screenshot to see what is on screen; the alert may have closed already.',
  });
}

/**
 * Answers the alert on screen and returns it as it was (title, text, buttons). Reading and answering run as
 * one action on the device's queue, so nothing else can change the screen in between. No alert, or no button
 * with that label, is `element_not_found` before the alert is touched.
 */
export async function handleAlert(hub: DeviceHub, deviceId: string, action: AlertAction): Promise<AlertInfo> {
  return runWith(hub, deviceId, ['alert', 'handleAlert'], 'answer alerts', async (driver, signal) => {
    const alert = await driver.alert(signal);
    if (!alert) throw noAlert(deviceId);
    if (action.kind === 'press' && !alert.buttons.includes(action.button)) {
      throw new ApexError('element_not_found', `The alert on device ${deviceId} has no button "${action.button}".`, {
        hint: `Its buttons: ${alert.buttons.map((b) => `"${b}"`).join(', ') || 'none'}.`,
      });
    }
    await driver.handleAlert(action, signal);
    return alert;
  });
}
