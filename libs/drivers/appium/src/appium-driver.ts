import {
  TIMEOUT_DEFAULTS,
  type DeviceDriver,
  type DriverStatus,
  type HardwareButton,
  type Platform,
  type Point,
  type RawScreenshot,
  type ScreenGeometry,
  type SwipeGesture,
  type TypeTextRequest,
  type UiNode,
} from '@apex/port';
import { ApexError, invalidInput } from '@apex/errors';
import { readScreenStream, WebDriverBackedDriver } from '@apex/webdriver-http';
import { z } from 'zod';
import { androidCommands } from './android/commands';
import { checkedCapabilities, sessionCapabilities } from './capabilities';
import type { AppiumContext } from './context';
import { APPIUM_WORDING } from './errors';
import { iosCommands } from './ios';
import type { PlatformCommands } from './platform';

export interface AppiumDriverOptions {
  /** The device's id in Apex, used in error messages. */
  deviceId: string;
  /** The automation server, e.g. http://127.0.0.1:4723 (a base path such as /wd/hub is kept). */
  serverUrl: string;
  /**
   * Session capabilities. `platformName` ("iOS" or "Android") is required; `appium:automationName` defaults
   * to XCUITest / UiAutomator2; names without a vendor prefix get `appium:`.
   */
  capabilities: Record<string, unknown>;
  /** Bound on one TCP connect to the server (default 3 s). */
  connectTimeoutMs?: number;
  /**
   * Bound on creating a session (default 120 s): on a Mac the server may build and start the on-device agent
   * first. A caller that gives up earlier (the hub's action limit) leaves the creation running for the next call.
   */
  sessionStartTimeoutMs?: number;
  /**
   * The phone's MJPEG screen stream, e.g. http://127.0.0.1:9100: the XCUITest driver's `appium:mjpegServerPort`
   * forwarded, or, with `appium:webDriverAgentUrl`, the agent's own stream port on its host. Absent: no stream
   * (a live view falls back to screenshots).
   */
  mjpegUrl?: string;
  /**
   * The phone a session must be on (`appium:udid`), when the server may route it elsewhere (a Selenium Grid
   * hub): a session on another phone is closed at once and the call fails with `device_error`.
   */
  expectedUdid?: string;
  /** The `Authorization` header of every request to the server (a device cloud's credentials). */
  authorization?: string;
}

const DEFAULT_SESSION_START_MS = 120_000;

const OptionsSchema = z.object({
  deviceId: z.string().min(1),
  serverUrl: z.url({ protocol: /^https?$/ }),
  capabilities: z.record(z.string(), z.unknown()),
  connectTimeoutMs: z.number().int().positive().optional(),
  sessionStartTimeoutMs: z.number().int().positive().optional(),
  mjpegUrl: z.url({ protocol: /^http$/ }).optional(),
  expectedUdid: z.string().min(1).optional(),
  authorization: z.string().min(1).optional(),
});

/**
 * A DeviceDriver that drives a phone through an Appium server over the W3C WebDriver protocol: iOS with the
 * XCUITest driver (run here against the virtual iPhone), Android with UiAutomator2 (mapped, not run here).
 * Units are points (dp on Android). Every call ends when its signal aborts; the driver bounds only the
 * connect and the session creation. Every failure leaves as an ApexError (errors.ts) with the same codes as
 * the direct driver; the server's text stays in `cause`.
 */
export class AppiumDriver extends WebDriverBackedDriver implements DeviceDriver {
  readonly platform: Platform;
  readonly listApps?: DeviceDriver['listApps'];
  readonly longPress?: DeviceDriver['longPress'];
  readonly doubleTap?: DeviceDriver['doubleTap'];
  readonly pinch?: DeviceDriver['pinch'];
  readonly openUrl?: DeviceDriver['openUrl'];
  readonly setOrientation?: DeviceDriver['setOrientation'];
  readonly getClipboard?: DeviceDriver['getClipboard'];
  readonly setClipboard?: DeviceDriver['setClipboard'];
  readonly setLocked?: DeviceDriver['setLocked'];
  readonly hideKeyboard?: DeviceDriver['hideKeyboard'];
  readonly alert?: DeviceDriver['alert'];
  readonly handleAlert?: DeviceDriver['handleAlert'];
  readonly setAppearance?: DeviceDriver['setAppearance'];
  readonly foregroundApp?: DeviceDriver['foregroundApp'];
  readonly appState?: DeviceDriver['appState'];
  readonly backgroundApp?: DeviceDriver['backgroundApp'];
  readonly setLocation?: DeviceDriver['setLocation'];
  readonly launchAppWith?: DeviceDriver['launchAppWith'];
  readonly installApp?: DeviceDriver['installApp'];
  readonly uninstallApp?: DeviceDriver['uninstallApp'];
  readonly resetApp?: DeviceDriver['resetApp'];
  readonly setPermission?: DeviceDriver['setPermission'];
  readonly biometric?: DeviceDriver['biometric'];
  readonly pushNotification?: DeviceDriver['pushNotification'];
  readonly addMedia?: DeviceDriver['addMedia'];
  /** Only when a stream address is configured (the hub then reads it beside the action queue). */
  readonly stream?: (signal: AbortSignal) => AsyncIterable<Uint8Array>;
  private readonly ctx: AppiumContext;
  private readonly commands: PlatformCommands;

  constructor(options: AppiumDriverOptions) {
    const parsed = OptionsSchema.safeParse(options);
    if (!parsed.success) throw invalidInput(parsed.error.issues, 'driver options');
    const { capabilities, platform } = checkedCapabilities(options.capabilities);
    super({
      deviceId: options.deviceId,
      baseUrl: options.serverUrl,
      authorization: options.authorization,
      connectTimeoutMs: options.connectTimeoutMs ?? TIMEOUT_DEFAULTS.connectMs,
      // One request at a time: the server runs a session's commands one at a time anyway, and a rebuild must
      // never delete the session under a sibling request still in flight (the XCUITest driver then may never
      // answer it). The lost session is deleted first: that frees the device on the server.
      session: {
        capabilities: sessionCapabilities(capabilities, platform),
        startTimeoutMs: options.sessionStartTimeoutMs ?? DEFAULT_SESSION_START_MS,
        oneAtATime: true,
        deleteLostSession: true,
        verify: options.expectedUdid === undefined ? undefined : (caps) => assertSamePhone(options.deviceId, options.expectedUdid as string, caps),
      },
      wording: APPIUM_WORDING,
    });
    this.platform = platform;
    this.ctx = { deviceId: options.deviceId, session: this.session, serverUrl: options.serverUrl };
    if (options.mjpegUrl !== undefined) {
      const source = { deviceId: options.deviceId, url: new URL(options.mjpegUrl), connectTimeoutMs: options.connectTimeoutMs ?? TIMEOUT_DEFAULTS.connectMs };
      this.stream = (signal) => readScreenStream(source, signal);
    }
    this.commands = platform === 'ios' ? iosCommands(this.ctx) : androidCommands(this.ctx);
    // The platform's abilities, each behind the guard; an absent one stays absent (the hub says unsupported).
    const { foregroundApp, listApps, longPress, doubleTap, pinch, openUrl, setOrientation, getClipboard, setClipboard, setLocked, hideKeyboard, alert, handleAlert, setAppearance } =
      this.commands;
    if (foregroundApp) this.foregroundApp = (signal) => this.guard('read the app in front', () => foregroundApp(signal));
    if (listApps) this.listApps = (signal) => this.guard('list the apps', () => listApps(signal));
    if (longPress) this.longPress = (g, signal) => this.guard('long press', () => longPress(g, signal));
    if (doubleTap) this.doubleTap = (p, signal) => this.guard('double tap', () => doubleTap(p, signal));
    if (pinch) this.pinch = (g, signal) => this.guard('pinch', () => pinch(g, signal));
    if (openUrl) this.openUrl = (url, signal) => this.guard('open the address', () => openUrl(url, signal));
    if (setOrientation) this.setOrientation = (o, signal) => this.guard(`turn to ${o}`, () => setOrientation(o, signal));
    if (getClipboard) this.getClipboard = (signal) => this.guard('read the clipboard', () => getClipboard(signal));
    if (setClipboard) this.setClipboard = (t, signal) => this.guard('set the clipboard', () => setClipboard(t, signal));
    if (setLocked) this.setLocked = (l, signal) => this.guard(l ? 'lock the screen' : 'unlock the screen', () => setLocked(l, signal));
    if (hideKeyboard) this.hideKeyboard = (signal) => this.guard('hide the keyboard', () => hideKeyboard(signal));
    if (alert) this.alert = (signal) => this.guard('read the alert', () => alert(signal));
    if (handleAlert) this.handleAlert = (a, signal) => this.guard('answer the alert', () => handleAlert(a, signal));
    if (setAppearance) this.setAppearance = (a, signal) => this.guard(`switch to ${a} appearance`, () => setAppearance(a, signal));
    const { appState, backgroundApp, setLocation, launchAppWith } = this.commands;
    if (appState) this.appState = (id, signal) => this.guard(`read the state of ${id}`, () => appState(id, signal));
    if (backgroundApp) this.backgroundApp = (s, signal) => this.guard('send the app to the background', () => backgroundApp(s, signal));
    if (setLocation) this.setLocation = (l, signal) => this.guard(l ? 'simulate a location' : 'clear the simulated location', () => setLocation(l, signal));
    if (launchAppWith) this.launchAppWith = (id, o, signal) => this.guard(`launch ${id}`, () => launchAppWith(id, o, signal));
    const { installApp, uninstallApp, resetApp, setPermission, biometric, pushNotification, addMedia } = this.commands;
    if (installApp) this.installApp = (b, signal) => this.guard(`install ${b.appId}`, () => installApp(b, signal));
    if (uninstallApp) this.uninstallApp = (id, signal) => this.guard(`uninstall ${id}`, () => uninstallApp(id, signal));
    if (resetApp) this.resetApp = (id, signal) => this.guard(`reset ${id}`, () => resetApp(id, signal));
    if (setPermission) this.setPermission = (id, p, st, signal) => this.guard(`set the ${p} permission of ${id}`, () => setPermission(id, p, st, signal));
    if (biometric) this.biometric = (a, signal) => this.guard('simulate a biometric', () => biometric(a, signal));
    if (pushNotification) this.pushNotification = (n, signal) => this.guard('deliver a notification', () => pushNotification(n, signal));
    if (addMedia) this.addMedia = (f, signal) => this.guard(`add the ${f.kind} to the library`, () => addMedia(f, signal));
  }

  /** Another boot of the device, maybe: forget its scale. */
  protected sessionRenewed(): void {
    this.ctx.scale = undefined;
  }

  status(signal: AbortSignal): Promise<DriverStatus> {
    return this.guard('read its status', () => this.commands.status(signal));
  }

  screen(signal: AbortSignal): Promise<ScreenGeometry> {
    return this.guard('read the screen size', () => this.commands.screen(signal));
  }

  screenshot(signal: AbortSignal): Promise<RawScreenshot> {
    return this.guard('take a screenshot', () => this.commands.screenshot(signal));
  }

  tap(point: Point, signal: AbortSignal): Promise<void> {
    return this.guard('tap', () => this.commands.tap(point, signal));
  }

  swipe(gesture: SwipeGesture, signal: AbortSignal): Promise<void> {
    return this.guard('swipe', () => this.commands.swipe(gesture, signal));
  }

  typeText(request: TypeTextRequest, signal: AbortSignal): Promise<void> {
    return this.guard('type text', () => this.commands.typeText(request, signal));
  }

  pressButton(button: HardwareButton, signal: AbortSignal): Promise<void> {
    return this.guard(`press the ${button} button`, () => this.commands.pressButton(button, signal));
  }

  launchApp(appId: string, signal: AbortSignal): Promise<void> {
    return this.guard(`launch ${appId}`, () => this.commands.launchApp(appId, signal));
  }

  terminateApp(appId: string, signal: AbortSignal): Promise<boolean> {
    return this.guard(`terminate ${appId}`, () => this.commands.terminateApp(appId, signal));
  }

  uiTree(signal: AbortSignal): Promise<UiNode> {
    return this.guard('read the screen elements', () => this.commands.uiTree(signal));
  }

  ping(signal: AbortSignal): Promise<void> {
    return this.guard('answer a health check', () => this.commands.ping(signal));
  }
}

/** The udid a session's returned capabilities name (W3C servers prefix it, relays may not). */
function udidOf(capabilities: Record<string, unknown>): unknown {
  return capabilities['appium:udid'] ?? capabilities.udid;
}

function assertSamePhone(deviceId: string, expected: string, capabilities: Record<string, unknown>): void {
  if (udidOf(capabilities) === expected) return;
  throw new ApexError('device_error', `Device ${deviceId}: the server opened the session on another phone; Apex closed it without acting.`, {
    hint: 'Check that the phone is registered once in the device lab with its own udid, then retry.',
  });
}

export function createAppiumDriver(options: AppiumDriverOptions): AppiumDriver {
  return new AppiumDriver(options);
}
