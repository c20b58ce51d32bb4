import { ApexError } from '@apex/errors';
import type { AppRef, BatteryState, DriverStatus, HardwareButton, Point, RawScreenshot, ScreenGeometry, SwipeGesture, TypeTextRequest, UiNode } from '@apex/port';
import { WebDriverMalformedReply, WebDriverProtocolError } from '@apex/webdriver-http';
import { getClipboard, orientationOf, performSwipe, readScreenshotPng, readSource, readWindowSize, setClipboard } from '../common';
import { asRecord, command, deviceInfo, mobile, nonEmptyText, optional, positiveNumber, type AppiumContext } from '../context';
import type { PlatformCommands } from '../platform';
import * as appLoop from './app-loop';
import * as controls from './controls';
import { normalizeAndroidSource } from '@apex/android-source';

/*
 * Android through the UiAutomator2 driver, written against its documented commands. NOT RUN HERE: there is
 * no Android device or emulator on this machine, so only the pure parts (the source normalizer) are tested.
 *
 * Units: the server speaks device pixels everywhere (bounds, gestures, window rect); Apex speaks
 * density-independent pixels (dp). scale = display density (dpi) / 160, read once per session with
 * `mobile: getDisplayDensity`; points in are multiplied by it, rects out divided by it.
 */

/** Android KeyEvent codes. */
const KEYCODES: Record<HardwareButton, number> = { home: 3, back: 4, recents: 187, volumeUp: 24, volumeDown: 25 };
const KEYCODE_ENTER = 66;
/** `mobile: queryAppState` answer for a package that is not installed. */
const APP_STATE_NOT_INSTALLED = 0;

async function scaleOf(ctx: AppiumContext, signal: AbortSignal): Promise<number> {
  if (ctx.scale) return ctx.scale;
  const density = positiveNumber(await mobile(ctx, 'getDisplayDensity', undefined, { idempotent: true, signal }));
  if (density === undefined) throw new WebDriverMalformedReply(200, 'mobile: getDisplayDensity', 'not a positive number');
  ctx.scale = density / 160;
  return ctx.scale;
}

const toPixels = (point: Point, scale: number) => ({ x: Math.round(point.x * scale), y: Math.round(point.y * scale) });

/** The window rect (follows rotation) in dp, with the scale known for the session. */
async function screenGeometry(ctx: AppiumContext, signal: AbortSignal): Promise<ScreenGeometry> {
  const scale = await scaleOf(ctx, signal);
  const size = await readWindowSize(ctx, signal);
  if (!size) throw new WebDriverMalformedReply(200, 'GET /window/rect', 'no window size');
  return { width: Math.round((size.width / scale) * 100) / 100, height: Math.round((size.height / scale) * 100) / 100, scale };
}

/** BatteryManager.BATTERY_STATUS_*: 1 unknown, 2 charging, 3 discharging, 4 not charging, 5 full. */
function batteryState(code: unknown): BatteryState['state'] {
  switch (code) {
    case 2:
      return 'charging';
    case 3:
    case 4:
      return 'unplugged';
    case 5:
      return 'full';
    default:
      return 'unknown';
  }
}

async function status(ctx: AppiumContext, signal: AbortSignal): Promise<DriverStatus> {
  const read = (name: string) => optional(() => mobile(ctx, name, undefined, { idempotent: true, signal }));
  const [screen, facts, currentPackage, locked, orientation, battery] = await Promise.all([
    screenGeometry(ctx, signal),
    deviceInfo(ctx, signal),
    read('getCurrentPackage'),
    read('isLocked'),
    optional(() => command(ctx, { method: 'GET', path: '/orientation', idempotent: true, signal })),
    read('batteryInfo'),
  ]);
  const result: DriverStatus = { platform: 'android', screen };
  const osVersion = nonEmptyText(facts?.platformVersion) ?? nonEmptyText(ctx.session.capabilities.platformVersion);
  if (osVersion) result.osVersion = osVersion;
  const model = [nonEmptyText(facts?.manufacturer), nonEmptyText(facts?.model)].filter(Boolean).join(' ');
  if (model) result.model = model;
  const turned = orientationOf(orientation);
  if (turned) result.orientation = turned;
  const appId = nonEmptyText(currentPackage);
  if (appId) result.foregroundApp = { appId };
  const batteryInfo = asRecord(battery);
  if (typeof batteryInfo?.level === 'number' && batteryInfo.level >= 0) {
    result.battery = { level: Math.min(1, batteryInfo.level), state: batteryState(batteryInfo.state) };
  }
  if (typeof locked === 'boolean') result.locked = locked;
  return result;
}

/** `mobile: getCurrentPackage`: the package in front, one request (UiAutomator2 names no app title). */
async function foregroundApp(ctx: AppiumContext, signal: AbortSignal): Promise<AppRef | undefined> {
  const appId = nonEmptyText(await mobile(ctx, 'getCurrentPackage', undefined, { idempotent: true, signal }));
  return appId ? { appId } : undefined;
}

async function screenshot(ctx: AppiumContext, signal: AbortSignal): Promise<RawScreenshot> {
  const [shot, scale] = await Promise.all([readScreenshotPng(ctx, signal), scaleOf(ctx, signal)]);
  return { ...shot, scale };
}

async function uiTree(ctx: AppiumContext, signal: AbortSignal): Promise<UiNode> {
  const [xml, scale] = await Promise.all([readSource(ctx, signal), scaleOf(ctx, signal)]);
  return normalizeAndroidSource(xml, ctx.deviceId, scale);
}

/** `mobile: clickGesture` at a point (pixels). */
async function tap(ctx: AppiumContext, point: Point, signal: AbortSignal): Promise<void> {
  await mobile(ctx, 'clickGesture', toPixels(point, await scaleOf(ctx, signal)), { signal });
}

/** W3C touch actions (pixels): the documented coordinate swipe; `mobile: swipeGesture` only knows regions. */
async function swipe(ctx: AppiumContext, gesture: SwipeGesture, signal: AbortSignal): Promise<void> {
  await performSwipe(ctx, gesture, signal, await scaleOf(ctx, signal));
}

/** `mobile: type` types into the focused input; it answers false when the text could not be sent. Enter submits. */
async function typeText(ctx: AppiumContext, request: TypeTextRequest, signal: AbortSignal): Promise<void> {
  if (request.text) {
    const sent = await mobile(ctx, 'type', { text: request.text }, { signal });
    if (sent === false) {
      throw new ApexError('element_not_found', `Device ${ctx.deviceId}: no text field has keyboard focus, so nothing was typed.`, {
        hint: 'Tap the text field first, then type.',
      });
    }
  }
  if (request.submit) await mobile(ctx, 'pressKey', { keycode: KEYCODE_ENTER }, { signal });
}

async function pressButton(ctx: AppiumContext, button: HardwareButton, signal: AbortSignal): Promise<void> {
  await mobile(ctx, 'pressKey', { keycode: KEYCODES[button] }, { signal });
}

/**
 * `mobile: activateApp` starts the package's launcher activity (or brings it to the front). Its failure text
 * is not a stable contract, so a failure is followed by `mobile: queryAppState`: 0 means not installed.
 */
async function launchApp(ctx: AppiumContext, appId: string, signal: AbortSignal): Promise<void> {
  try {
    await mobile(ctx, 'activateApp', { appId }, { signal });
  } catch (error) {
    if (!(error instanceof WebDriverProtocolError)) throw error;
    const state = await optional(() => mobile(ctx, 'queryAppState', { appId }, { idempotent: true, signal }));
    if (state === APP_STATE_NOT_INSTALLED) {
      throw new ApexError('app_not_found', `Device ${ctx.deviceId} has no app "${appId}" it can launch.`, {
        hint: 'Check the package name (for example com.android.settings).',
        cause: error,
      });
    }
    throw error;
  }
}

async function terminateApp(ctx: AppiumContext, appId: string, signal: AbortSignal): Promise<boolean> {
  return (await mobile(ctx, 'terminateApp', { appId }, { signal })) === true;
}

export function androidCommands(ctx: AppiumContext): PlatformCommands {
  return {
    status: (signal) => status(ctx, signal),
    foregroundApp: (signal) => foregroundApp(ctx, signal),
    screen: (signal) => screenGeometry(ctx, signal),
    screenshot: (signal) => screenshot(ctx, signal),
    tap: (point, signal) => tap(ctx, point, signal),
    swipe: (gesture, signal) => swipe(ctx, gesture, signal),
    typeText: (request, signal) => typeText(ctx, request, signal),
    pressButton: (button, signal) => pressButton(ctx, button, signal),
    launchApp: (appId, signal) => launchApp(ctx, appId, signal),
    terminateApp: (appId, signal) => terminateApp(ctx, appId, signal),
    // No listApps: UiAutomator2 has no documented command that lists packages without `mobile: shell`.
    longPress: async (gesture, signal) => controls.longPress(ctx, gesture, await scaleOf(ctx, signal), signal),
    doubleTap: async (point, signal) => controls.doubleTap(ctx, point, await scaleOf(ctx, signal), signal),
    pinch: async (gesture, signal) => controls.pinch(ctx, gesture, await scaleOf(ctx, signal), signal),
    openUrl: (url, signal) => controls.openUrl(ctx, url, signal),
    setOrientation: (orientation, signal) => controls.setOrientation(ctx, orientation, signal),
    getClipboard: (signal) => getClipboard(ctx, signal),
    setClipboard: (text, signal) => setClipboard(ctx, text, signal),
    setLocked: (locked, signal) => controls.setLocked(ctx, locked, signal),
    hideKeyboard: (signal) => controls.hideKeyboard(ctx, signal),
    alert: (signal) => controls.alert(ctx, signal),
    handleAlert: (action, signal) => controls.handleAlert(ctx, action, signal),
    setAppearance: (appearance, signal) => controls.setAppearance(ctx, appearance, signal),
    appState: (appId, signal) => appLoop.appState(ctx, appId, signal),
    backgroundApp: (seconds, signal) => appLoop.backgroundApp(ctx, seconds, signal),
    setLocation: (location, signal) => appLoop.setLocation(ctx, location, signal),
    launchAppWith: (appId, options, signal) => appLoop.launchAppWith(ctx, appId, options, signal),
    installApp: (build, signal) => appLoop.installApp(ctx, build, signal),
    uninstallApp: (appId, signal) => appLoop.uninstallApp(ctx, appId, signal),
    resetApp: (appId, signal) => appLoop.resetApp(ctx, appId, signal),
    setPermission: (appId, permission, state, signal) => appLoop.setPermission(ctx, appId, permission, state, signal),
    biometric: (action, signal) => appLoop.biometric(ctx, action, signal),
    addMedia: (file, signal) => appLoop.addMedia(ctx, file, signal),
    pushNotification: () => appLoop.pushNotification(ctx),
    uiTree: (signal) => uiTree(ctx, signal),
    ping: async (signal) => {
      await readWindowSize(ctx, signal);
    },
  };
}
