import type { AlertAction, AlertInfo, Appearance, LongPressGesture, Orientation, PinchGesture, Point } from '@apex/port';
import { AGENT_ORIENTATIONS, alertFailure, alertInfoOf, keyboardFailure, pasteboardText, rotationFailure, urlFailure } from '@apex/ios-source';
import { pinchActions, WebDriverProtocolError, withRouteMeaning } from '@apex/webdriver-http';
import { command, mobile, type AppiumContext } from '../context';

/*
 * The device controls through the XCUITest driver. Each is chosen for what it really sends in
 * webDriverAgentUrl mode without a USB connection (read from appium-xcuitest-driver 12.x):
 * - `mobile: touchAndHold` / `mobile: doubleTap` → `/wda/touchAndHold` / `/wda/doubleTap`;
 * - pinch: two-finger W3C `/actions` (forwarded), not `mobile: pinch`, which pinches about the app's centre only;
 * - `mobile: deepLink` → `/url` always; plain `POST /url` opens URLs with simctl unless the device is real;
 * - clipboard: `/appium/device/set_clipboard|get_clipboard` → `/wda/setPasteboard|getPasteboard`;
 *   `mobile: setPasteboard/getPasteboard` work on a Simulator only (simctl);
 * - `mobile: alert` for the buttons and the answers, `GET /alert/text` for the text.
 */

export async function longPress(ctx: AppiumContext, gesture: LongPressGesture, signal: AbortSignal): Promise<void> {
  await mobile(ctx, 'touchAndHold', { x: gesture.point.x, y: gesture.point.y, duration: gesture.durationMs / 1000 }, { signal });
}

export async function doubleTap(ctx: AppiumContext, point: Point, signal: AbortSignal): Promise<void> {
  await mobile(ctx, 'doubleTap', { x: point.x, y: point.y }, { signal });
}

export async function pinch(ctx: AppiumContext, gesture: PinchGesture, signal: AbortSignal): Promise<void> {
  await command(ctx, { method: 'POST', path: '/actions', body: pinchActions(gesture.center, gesture.scale, gesture.durationMs), signal });
}

export async function openUrl(ctx: AppiumContext, url: string, signal: AbortSignal): Promise<void> {
  await withRouteMeaning(
    () => mobile(ctx, 'deepLink', { url }, { signal }),
    (e) => urlFailure(e, ctx.deviceId, url),
  );
}

export async function setOrientation(ctx: AppiumContext, orientation: Orientation, signal: AbortSignal): Promise<void> {
  await withRouteMeaning(
    () => command(ctx, { method: 'POST', path: '/orientation', body: { orientation: AGENT_ORIENTATIONS[orientation] }, signal }),
    (e) => rotationFailure(e, ctx.deviceId, orientation),
  );
}

export async function getClipboard(ctx: AppiumContext, signal: AbortSignal): Promise<string> {
  const value = await command(ctx, { method: 'POST', path: '/appium/device/get_clipboard', body: { contentType: 'plaintext' }, idempotent: true, signal });
  return pasteboardText.decode(value);
}

export async function setClipboard(ctx: AppiumContext, text: string, signal: AbortSignal): Promise<void> {
  await command(ctx, {
    method: 'POST',
    path: '/appium/device/set_clipboard',
    body: { content: pasteboardText.encode(text), contentType: 'plaintext' },
    signal,
  });
}

export async function setLocked(ctx: AppiumContext, locked: boolean, signal: AbortSignal): Promise<void> {
  await mobile(ctx, locked ? 'lock' : 'unlock', undefined, { signal });
}

/** `done`, as the direct driver (the XCUITest driver adds it anyway). */
export async function hideKeyboard(ctx: AppiumContext, signal: AbortSignal): Promise<void> {
  await withRouteMeaning(
    () => mobile(ctx, 'hideKeyboard', { keys: ['done'] }, { signal }),
    (e) => keyboardFailure(e, ctx.deviceId),
  );
}

export async function alert(ctx: AppiumContext, signal: AbortSignal): Promise<AlertInfo | undefined> {
  try {
    const text = await command(ctx, { method: 'GET', path: '/alert/text', idempotent: true, signal });
    const buttons = await mobile(ctx, 'alert', { action: 'getButtons' }, { idempotent: true, signal });
    return alertInfoOf(text, buttons);
  } catch (error) {
    if (error instanceof WebDriverProtocolError && error.error === 'no such alert') return undefined;
    throw error;
  }
}

export async function handleAlert(ctx: AppiumContext, action: AlertAction, signal: AbortSignal): Promise<void> {
  const args = action.kind === 'press' ? { action: 'accept', buttonLabel: action.button } : { action: action.kind };
  await withRouteMeaning(
    () => mobile(ctx, 'alert', args, { signal }),
    (e) => alertFailure(e, ctx.deviceId, action.kind === 'press' ? action.button : undefined),
  );
}

export async function setAppearance(ctx: AppiumContext, appearance: Appearance, signal: AbortSignal): Promise<void> {
  await mobile(ctx, 'setAppearance', { style: appearance }, { signal });
}
