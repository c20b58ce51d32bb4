import {
  TIMEOUT_DEFAULTS,
  type AlertAction,
  type AlertInfo,
  type Appearance,
  type DeviceDriver,
  type LongPressGesture,
  type Orientation,
  type PinchGesture,
  type DriverStatus,
  type HardwareButton,
  type AppList,
  type AppRef,
  type CrashReport,
  type CrashSummary,
  type LogEntry,
  type LogQuery,
  type Point,
  type RawScreenshot,
  type ScreenGeometry,
  type SwipeGesture,
  type TypeTextRequest,
  type UiNode,
  type AppBuild,
  type AppState,
  type BiometricAction,
  type GeoLocation,
  type LaunchOptions,
  type MediaFile,
  type Permission,
  type PermissionState,
  type PushNotification,
} from '@apex/port';
import { readScreenStream, WebDriverBackedDriver } from '@apex/webdriver-http';
import { SourceMemo } from '@apex/ios-source';
import * as alerts from './commands/alerts';
import * as appLoop from './commands/app-loop';
import type { SimulatorControl } from './simulator/simulator-control';
import { goIosInstaller } from './usb-iphone/go-ios-install';
import * as apps from './commands/apps';
import * as device from './commands/device';
import * as diagnostics from './commands/diagnostics';
import * as gestures from './commands/gestures';
import * as keyboard from './commands/keyboard';
import * as screen from './commands/screen';
import * as source from './commands/source';
import * as system from './commands/system';
import * as touch from './commands/touch';
import { WDA_WORDING } from './errors';
import type { WdaContext } from './wda-context';

export interface WdaDriverOptions {
  /** The device's id in Apex, used in error messages. */
  deviceId: string;
  /** Where the device's automation server listens, e.g. http://127.0.0.1:8100. */
  url: string;
  /** Bound on one TCP connect (default 3 s): an unreachable phone fails fast as offline. */
  connectTimeoutMs?: number;
  /**
   * The phone's MJPEG screen stream (its agent serves one on port 9100), e.g. http://127.0.0.1:9100. Absent:
   * the driver has no stream, and a live view falls back to screenshots.
   */
  mjpegUrl?: string;
  /** Bound on creating a session (default: one action's limit); a caller that gives up leaves it running. */
  sessionStartTimeoutMs?: number;
  /**
   * The phone is a simulator whose host tools Apex can reach (install, reset, permissions, biometrics, push,
   * media, its log and crash reports: the agent has no route for them). Absent: those abilities are absent too
   * (`unsupported_operation`).
   */
  simulator?: SimulatorControl;
  /** A real iPhone on USB (no simulator): builds install through go-ios (see usb-iphone/go-ios-install.ts). */
  usbIPhone?: { udid: string; goIos: string; env?: NodeJS.ProcessEnv };
}

/**
 * A DeviceDriver for an iPhone through its WebDriverAgent HTTP server. Units are points. Every call ends
 * when its signal aborts (the request's socket is closed); the only bound of its own is the connect. Every
 * failure leaves as an ApexError (see errors.ts); the protocol's text stays in `cause`.
 */
export class WdaDriver extends WebDriverBackedDriver implements DeviceDriver {
  readonly platform = 'ios' as const;
  private readonly ctx: WdaContext;
  /** Only when a stream address is configured (the hub then reads it beside the action queue). */
  readonly stream?: (signal: AbortSignal) => AsyncIterable<Uint8Array>;
  // What only a simulator's host tools do: present only with a simulator control.
  readonly installApp?: (build: AppBuild, signal: AbortSignal) => Promise<{ replaced: boolean }>;
  readonly uninstallApp?: (appId: string, signal: AbortSignal) => Promise<void>;
  readonly resetApp?: (appId: string, signal: AbortSignal) => Promise<void>;
  readonly setPermission?: (appId: string, permission: Permission, state: PermissionState, signal: AbortSignal) => Promise<void>;
  readonly biometric?: (action: BiometricAction, signal: AbortSignal) => Promise<void>;
  readonly pushNotification?: (notification: PushNotification, signal: AbortSignal) => Promise<void>;
  readonly addMedia?: (file: MediaFile, signal: AbortSignal) => Promise<void>;
  readonly logs?: (query: LogQuery, signal: AbortSignal) => AsyncIterable<LogEntry>;
  readonly crashReports?: (query: { app?: string; sinceMs?: number }, signal: AbortSignal) => Promise<CrashSummary[]>;
  readonly crashReport?: (id: string, signal: AbortSignal) => Promise<CrashReport | undefined>;

  constructor(options: WdaDriverOptions) {
    super({
      deviceId: options.deviceId,
      baseUrl: options.url,
      connectTimeoutMs: options.connectTimeoutMs ?? TIMEOUT_DEFAULTS.connectMs,
      // No bundleId: the session attaches to whatever is on screen, nothing is launched.
      session: { capabilities: { alwaysMatch: {}, firstMatch: [{}] }, startTimeoutMs: options.sessionStartTimeoutMs ?? TIMEOUT_DEFAULTS.actionMs },
      wording: WDA_WORDING,
    });
    this.ctx = { deviceId: options.deviceId, client: this.client, session: this.session, sources: new SourceMemo() };
    if (options.mjpegUrl !== undefined) {
      const source = { deviceId: options.deviceId, url: new URL(options.mjpegUrl), connectTimeoutMs: options.connectTimeoutMs ?? TIMEOUT_DEFAULTS.connectMs };
      this.stream = (signal) => readScreenStream(source, signal);
    }
    const simulator = options.simulator;
    if (simulator) {
      this.installApp = (build, signal) => this.guard(`install ${build.name}`, () => simulator.install(build, signal));
      this.uninstallApp = (appId, signal) => this.guard(`uninstall ${appId}`, () => simulator.uninstall(appId, signal));
      // Reset stops the app: the agent's session may point at it, the next command renews it if so.
      this.resetApp = (appId, signal) => this.guard(`reset ${appId}`, () => simulator.reset(appId, signal));
      this.setPermission = (appId, permission, state, signal) => this.guard(`set a permission of ${appId}`, () => simulator.setPermission(appId, permission, state, signal));
      this.biometric = (action, signal) => this.guard(`simulate biometrics`, () => simulator.biometric(action, signal));
      this.pushNotification = (notification, signal) => this.guard(`deliver a notification`, () => simulator.push(notification, signal));
      this.addMedia = (file, signal) => this.guard(`add a ${file.kind}`, () => simulator.addMedia(file, signal));
      this.logs = (query, signal) => diagnostics.logs(options.deviceId, simulator, query, signal);
      this.crashReports = (query, signal) => this.guard('list its crash reports', () => diagnostics.crashReports(simulator, query, signal));
      this.crashReport = (id, signal) => this.guard('read a crash report', () => diagnostics.crashReport(simulator, id, signal));
    } else if (options.usbIPhone) {
      const install = goIosInstaller({ deviceId: options.deviceId, ...options.usbIPhone });
      this.installApp = (build, signal) => this.guard(`install ${build.name}`, () => install(build, signal));
    }
  }

  /** Another boot of the device, maybe: forget its scale. */
  protected sessionRenewed(): void {
    this.ctx.scale = undefined;
  }

  status(signal: AbortSignal): Promise<DriverStatus> {
    return this.guard('read its status', () => device.status(this.ctx, signal));
  }

  foregroundApp(signal: AbortSignal): Promise<AppRef | undefined> {
    return this.guard('read the app in front', () => apps.foregroundApp(this.ctx, signal));
  }

  screen(signal: AbortSignal): Promise<ScreenGeometry> {
    return this.guard('read the screen size', () => screen.screenGeometry(this.ctx, signal));
  }

  screenshot(signal: AbortSignal): Promise<RawScreenshot> {
    return this.guard('take a screenshot', () => screen.screenshot(this.ctx, signal));
  }

  tap(point: Point, signal: AbortSignal): Promise<void> {
    return this.guard('tap', () => gestures.tap(this.ctx, point, signal));
  }

  swipe(gesture: SwipeGesture, signal: AbortSignal): Promise<void> {
    return this.guard('swipe', () => gestures.swipe(this.ctx, gesture, signal));
  }

  longPress(gesture: LongPressGesture, signal: AbortSignal): Promise<void> {
    return this.guard('long press', () => touch.longPress(this.ctx, gesture, signal));
  }

  doubleTap(point: Point, signal: AbortSignal): Promise<void> {
    return this.guard('double tap', () => touch.doubleTap(this.ctx, point, signal));
  }

  pinch(gesture: PinchGesture, signal: AbortSignal): Promise<void> {
    return this.guard('pinch', () => touch.pinch(this.ctx, gesture, signal));
  }

  openUrl(url: string, signal: AbortSignal): Promise<void> {
    return this.guard('open the address', () => system.openUrl(this.ctx, url, signal));
  }

  setOrientation(orientation: Orientation, signal: AbortSignal): Promise<void> {
    return this.guard(`turn to ${orientation}`, () => system.setOrientation(this.ctx, orientation, signal));
  }

  getClipboard(signal: AbortSignal): Promise<string> {
    return this.guard('read the clipboard', () => system.getClipboard(this.ctx, signal));
  }

  setClipboard(text: string, signal: AbortSignal): Promise<void> {
    return this.guard('set the clipboard', () => system.setClipboard(this.ctx, text, signal));
  }

  setLocked(locked: boolean, signal: AbortSignal): Promise<void> {
    return this.guard(locked ? 'lock the screen' : 'unlock the screen', () => system.setLocked(this.ctx, locked, signal));
  }

  hideKeyboard(signal: AbortSignal): Promise<void> {
    return this.guard('hide the keyboard', () => system.hideKeyboard(this.ctx, signal));
  }

  alert(signal: AbortSignal): Promise<AlertInfo | undefined> {
    return this.guard('read the alert', () => alerts.alert(this.ctx, signal));
  }

  handleAlert(action: AlertAction, signal: AbortSignal): Promise<void> {
    return this.guard('answer the alert', () => alerts.handleAlert(this.ctx, action, signal));
  }

  setAppearance(appearance: Appearance, signal: AbortSignal): Promise<void> {
    return this.guard(`switch to ${appearance} appearance`, () => system.setAppearance(this.ctx, appearance, signal));
  }

  typeText(request: TypeTextRequest, signal: AbortSignal): Promise<void> {
    return this.guard('type text', () => keyboard.typeText(this.ctx, request, signal));
  }

  pressButton(button: HardwareButton, signal: AbortSignal): Promise<void> {
    return this.guard(`press the ${button} button`, () => device.pressButton(this.ctx, button, signal));
  }

  launchApp(appId: string, signal: AbortSignal): Promise<void> {
    return this.guard(`launch ${appId}`, () => apps.launchApp(this.ctx, appId, signal));
  }

  launchAppWith(appId: string, options: LaunchOptions, signal: AbortSignal): Promise<void> {
    return this.guard(`launch ${appId}`, () => appLoop.launchAppWith(this.ctx, appId, options, signal));
  }

  appState(appId: string, signal: AbortSignal): Promise<AppState> {
    return this.guard(`read the state of ${appId}`, () => appLoop.appState(this.ctx, appId, signal));
  }

  backgroundApp(seconds: number | undefined, signal: AbortSignal): Promise<void> {
    return this.guard('send the app to the background', () => appLoop.backgroundApp(this.ctx, seconds, signal));
  }

  setLocation(location: GeoLocation | undefined, signal: AbortSignal): Promise<void> {
    return this.guard(location ? 'simulate a location' : 'clear the simulated location', () => appLoop.setLocation(this.ctx, location, signal));
  }

  terminateApp(appId: string, signal: AbortSignal): Promise<boolean> {
    return this.guard(`terminate ${appId}`, () => apps.terminateApp(this.ctx, appId, signal));
  }

  /** Running apps only: the protocol cannot enumerate installed apps. */
  async listApps(signal: AbortSignal): Promise<AppList> {
    return { apps: await this.guard('list the running apps', () => apps.listRunningApps(this.ctx, signal)), complete: false };
  }

  uiTree(signal: AbortSignal): Promise<UiNode> {
    return this.guard('read the screen elements', () => source.uiTree(this.ctx, signal));
  }

  ping(signal: AbortSignal): Promise<void> {
    return this.guard('answer a health check', () => device.ping(this.ctx, signal));
  }
}

export function createWdaDriver(options: WdaDriverOptions): WdaDriver {
  return new WdaDriver(options);
}
