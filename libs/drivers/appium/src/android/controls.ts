import type { AlertAction, AlertInfo, Appearance, LongPressGesture, Orientation, PinchGesture, Point } from '@apex/port';
import { alertFailure, urlFailure } from '@apex/ios-source';
import { WebDriverProtocolError, withRouteMeaning } from '@apex/webdriver-http';
import { command, mobile, type AppiumContext } from '../context';

/*
 * The device controls through UiAutomator2, written from its documented commands. NOT RUN on a device or
 * emulator here: only the commands sent are tested (against a recording server). Points in are dp;
 * `scale` (density / 160) turns them into the pixels the server speaks.
 */

const toPixels = (point: Point, scale: number) => ({ x: Math.round(point.x * scale), y: Math.round(point.y * scale) });

export async function longPress(ctx: AppiumContext, gesture: LongPressGesture, scale: number, signal: AbortSignal): Promise<void> {
  await mobile(ctx, 'longClickGesture', { ...toPixels(gesture.point, scale), duration: Math.round(gesture.durationMs) }, { signal });
}

export async function doubleTap(ctx: AppiumContext, point: Point, scale: number, signal: AbortSignal): Promise<void> {
  await mobile(ctx, 'doubleClickGesture', toPixels(point, scale), { signal });
}

/** Half the side of the square the pinch happens in (dp): as far from the centre as a finger goes. */
const PINCH_SPREAD_DP = 100;

/**
 * `pinchOpenGesture` / `pinchCloseGesture` work on a region, by a percent of its size: the square of
 * 2 × spread around the centre, and the percent that makes the fingers' distance change by `scale`
 * (open: from 1/scale of the side to all of it; close: from all of it to `scale` of it).
 */
export async function pinch(ctx: AppiumContext, gesture: PinchGesture, scale: number, signal: AbortSignal): Promise<void> {
  const half = PINCH_SPREAD_DP * scale;
  const center = toPixels(gesture.center, scale);
  const region = { left: center.x - Math.round(half), top: center.y - Math.round(half), width: Math.round(2 * half), height: Math.round(2 * half) };
  const opening = gesture.scale >= 1;
  const percent = Math.round((opening ? 1 - 1 / gesture.scale : 1 - gesture.scale) * 1000) / 1000;
  // speed in pixels per second: the distance each finger travels over the duration.
  const speed = Math.max(1, Math.round((percent * half) / Math.max(0.001, gesture.durationMs / 1000)));
  await mobile(ctx, opening ? 'pinchOpenGesture' : 'pinchCloseGesture', { ...region, percent, speed }, { signal });
}

/** `mobile: deepLink` starts the activity that handles the URL; none handles it → `invalid_argument`. */
export async function openUrl(ctx: AppiumContext, url: string, signal: AbortSignal): Promise<void> {
  await withRouteMeaning(
    () => mobile(ctx, 'deepLink', { url }, { signal }),
    (e) => urlFailure(e, ctx.deviceId, url),
  );
}

export async function setOrientation(ctx: AppiumContext, orientation: Orientation, signal: AbortSignal): Promise<void> {
  await command(ctx, { method: 'POST', path: '/orientation', body: { orientation: orientation === 'portrait' ? 'PORTRAIT' : 'LANDSCAPE' }, signal });
}

export async function setLocked(ctx: AppiumContext, locked: boolean, signal: AbortSignal): Promise<void> {
  await mobile(ctx, locked ? 'lock' : 'unlock', undefined, { signal });
}

/** Appium's hide-keyboard route (UiAutomator2 presses back only when a keyboard is shown). */
export async function hideKeyboard(ctx: AppiumContext, signal: AbortSignal): Promise<void> {
  await command(ctx, { method: 'POST', path: '/appium/device/hide_keyboard', body: {}, signal });
}

/**
 * The alert's text (`GET /alert/text`). UiAutomator2 has no command that lists an alert's buttons, so
 * `buttons` is empty here; `mobile: acceptAlert`/`dismissAlert` still press one by its label.
 */
export async function alert(ctx: AppiumContext, signal: AbortSignal): Promise<AlertInfo | undefined> {
  try {
    const text = await command(ctx, { method: 'GET', path: '/alert/text', idempotent: true, signal });
    return typeof text === 'string' && text ? { text, buttons: [] } : { buttons: [] };
  } catch (error) {
    if (error instanceof WebDriverProtocolError && error.error === 'no such alert') return undefined;
    throw error;
  }
}

export async function handleAlert(ctx: AppiumContext, action: AlertAction, signal: AbortSignal): Promise<void> {
  const [name, args] =
    action.kind === 'press' ? ['acceptAlert', { buttonLabel: action.button }] : [action.kind === 'accept' ? 'acceptAlert' : 'dismissAlert', {}];
  await withRouteMeaning(
    () => mobile(ctx, name, args, { signal }),
    (e) => alertFailure(e, ctx.deviceId, action.kind === 'press' ? action.button : undefined),
  );
}

/** Night mode (`UiModeManager`) is the system's dark appearance. */
export async function setAppearance(ctx: AppiumContext, appearance: Appearance, signal: AbortSignal): Promise<void> {
  await mobile(ctx, 'setUiMode', { mode: 'night', value: appearance === 'dark' ? 'yes' : 'no' }, { signal });
}
