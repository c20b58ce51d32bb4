import { ApexError } from '@apex/errors';
import {
  TIMEOUT_DEFAULTS,
  type AlertAction,
  type AlertInfo,
  type AppBuild,
  type AppList,
  type AppRef,
  type AppState,
  type Appearance,
  type BiometricAction,
  type GeoLocation,
  type MediaFile,
  type Permission,
  type PermissionState,
  type PushNotification,
  type CrashReport,
  type CrashSummary,
  type LogEntry,
  type LogQuery,
  type DeviceDriver,
  type DriverStatus,
  type HardwareButton,
  type LaunchOptions,
  type LongPressGesture,
  type Orientation,
  type PinchGesture,
  type Point,
  type RawScreenshot,
  type ScreenGeometry,
  type SwipeGesture,
  type TypeTextRequest,
  type UiNode,
} from '@apex/port';
import { join } from 'node:path';
import { okText, shellLine, type AdbContext } from './adb-context';
import type { AdbServerAddress } from './adb-server/adb-server-client';
import { loadOrCreateAdbKey } from './adb-wire/adb-key';
import * as alerts from './commands/alerts';
import * as apps from './commands/apps';
import * as lifecycle from './commands/app-lifecycle';
import { launchAppWith } from './commands/launch-options';
import * as environment from './commands/environment';
import * as device from './commands/device';
import * as evidence from './commands/evidence';
import * as keyboard from './commands/keyboard';
import * as screen from './commands/screen';
import * as touch from './commands/touch';
import { translateAdbFailure, type Where } from './errors';
import type { AdbTransport } from './transport/adb-transport';
import { DirectTransport } from './transport/direct-transport';
import { ServerTransport } from './transport/server-transport';
import { SourceMemo } from '@apex/ios-source';

export const DEFAULT_ADB_SERVER: AdbServerAddress = { host: '127.0.0.1', port: 5037 };

export interface AdbDriverOptions {
  /** The device's id in Apex, used in messages. */
  deviceId: string;
  /**
   * `{ serial }`: a phone as an adb server lists it (`emulator-5554`, a USB serial). `{ host: 'HOST:PORT' }`: a
   * phone's adbd over TCP — spoken to directly when no `server` is given, else through that server
   * (`host:connect:`, as `adb connect` does).
   */
  device: { serial: string } | { host: string };
  /** The adb server; default 127.0.0.1:5037 for a serial. With a `host` device and no server: direct. */
  server?: AdbServerAddress;
  /**
   * Where this computer's debugging key is kept for direct connections (`adbkey`, mode 0600, and `adbkey.pub`),
   * made the first time a phone asks for authentication. Without it such a phone cannot be used directly.
   */
  keyDir?: string;
  /** Bound on one TCP connect (default 3 s). */
  connectTimeoutMs?: number;
}

/** `HOST:PORT` → its parts; `[::1]:5555` → host `::1`. */
function splitHostPort(value: string): { host: string; port: number } {
  const colon = value.lastIndexOf(':');
  return { host: value.slice(0, colon).replace(/^\[(.*)\]$/, '$1'), port: Number(value.slice(colon + 1)) };
}

function transportFor(options: AdbDriverOptions): { transport: AdbTransport; where: Where } {
  const connectTimeoutMs = options.connectTimeoutMs ?? TIMEOUT_DEFAULTS.connectMs;
  if ('host' in options.device && !options.server) {
    const { host, port } = splitHostPort(options.device.host);
    const keyDir = options.keyDir;
    return {
      transport: new DirectTransport({ host, port, connectTimeoutMs, key: keyDir ? () => loadOrCreateAdbKey(keyDir) : undefined }),
      where: { deviceId: options.deviceId, serial: options.device.host, direct: true },
    };
  }
  const server = options.server ?? DEFAULT_ADB_SERVER;
  const serial = 'serial' in options.device ? options.device.serial : options.device.host;
  return {
    transport: new ServerTransport(server, serial, connectTimeoutMs, 'host' in options.device ? options.device.host : undefined),
    where: { deviceId: options.deviceId, serial, server: `${server.host}:${server.port}` },
  };
}

/** The key directory under Apex's data directory. */
export function adbKeyDir(dataDir: string): string {
  return join(dataDir, 'adb');
}

/**
 * A DeviceDriver for an Android phone over adb's own protocols, spoken from Node (no `adb` process): through an
 * adb server (a connection per call; the server keeps the phone's), or straight to the phone's adbd (one kept
 * connection, a stream per call). The signal closes the call's stream, which ends the command on the device
 * too. Units are dp; failures leave as ApexErrors (errors.ts).
 */
export class AdbDriver implements DeviceDriver {
  readonly platform = 'android' as const;
  private readonly ctx: AdbContext;

  constructor(options: AdbDriverOptions) {
    const { transport, where } = transportFor(options);
    this.ctx = { deviceId: options.deviceId, transport, where, sources: new SourceMemo() };
  }

  private async guard<T>(action: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw translateAdbFailure(error, this.ctx.where, action);
    }
  }

  private unsupported(what: string, reason: string): Promise<never> {
    return Promise.reject(new ApexError('unsupported_operation', `Device ${this.ctx.deviceId} cannot ${what}: ${reason}`));
  }

  status(signal: AbortSignal): Promise<DriverStatus> {
    return this.guard('read its status', () => device.status(this.ctx, signal));
  }

  screen(signal: AbortSignal): Promise<ScreenGeometry> {
    return this.guard('read the screen size', () => screen.screenGeometry(this.ctx, signal));
  }

  foregroundApp(signal: AbortSignal): Promise<AppRef | undefined> {
    return this.guard('read the app in front', () => device.foregroundApp(this.ctx, signal));
  }

  screenshot(signal: AbortSignal): Promise<RawScreenshot> {
    return this.guard('take a screenshot', () => screen.screenshot(this.ctx, signal));
  }

  uiTree(signal: AbortSignal): Promise<UiNode> {
    return this.guard('read the screen’s elements', () => screen.uiTree(this.ctx, signal));
  }

  tap(point: Point, signal: AbortSignal): Promise<void> {
    return this.guard('tap', () => touch.tap(this.ctx, point, signal));
  }

  swipe(gesture: SwipeGesture, signal: AbortSignal): Promise<void> {
    return this.guard('swipe', () => touch.swipe(this.ctx, gesture, signal));
  }

  longPress(gesture: LongPressGesture, signal: AbortSignal): Promise<void> {
    return this.guard('long press', () => touch.longPress(this.ctx, gesture, signal));
  }

  doubleTap(point: Point, signal: AbortSignal): Promise<void> {
    return this.guard('double tap', () => touch.doubleTap(this.ctx, point, signal));
  }

  pinch(_gesture: PinchGesture, _signal: AbortSignal): Promise<void> {
    return this.unsupported(
      'pinch',
      'a two-finger gesture needs a touch injector on the phone, and its system input command moves one finger only.',
    );
  }

  typeText(request: TypeTextRequest, signal: AbortSignal): Promise<void> {
    return this.guard('type text', () => keyboard.typeText(this.ctx, request, signal));
  }

  hideKeyboard(signal: AbortSignal): Promise<void> {
    return this.guard('hide the keyboard', () => keyboard.hideKeyboard(this.ctx, signal));
  }

  pressButton(button: HardwareButton, signal: AbortSignal): Promise<void> {
    return this.guard(`press ${button}`, () => device.pressButton(this.ctx, button, signal));
  }

  launchApp(appId: string, signal: AbortSignal): Promise<void> {
    return this.guard('launch the app', () => apps.launchApp(this.ctx, appId, signal));
  }

  /** Launch arguments as string extras; see commands/launch-options.ts for the mapping and what is refused. */
  launchAppWith(appId: string, options: LaunchOptions, signal: AbortSignal): Promise<void> {
    return this.guard('launch the app', () => launchAppWith(this.ctx, appId, options, signal));
  }

  terminateApp(appId: string, signal: AbortSignal): Promise<boolean> {
    return this.guard('stop the app', () => apps.terminateApp(this.ctx, appId, signal));
  }

  listApps(signal: AbortSignal): Promise<AppList> {
    return this.guard('list its apps', () => apps.listApps(this.ctx, signal));
  }

  installApp(build: AppBuild, signal: AbortSignal): Promise<{ replaced: boolean }> {
    return this.guard('install the app', () => lifecycle.installApp(this.ctx, build, signal));
  }

  uninstallApp(appId: string, signal: AbortSignal): Promise<void> {
    return this.guard('uninstall the app', () => lifecycle.uninstallApp(this.ctx, appId, signal));
  }

  resetApp(appId: string, signal: AbortSignal): Promise<void> {
    return this.guard('reset the app', () => lifecycle.resetApp(this.ctx, appId, signal));
  }

  appState(appId: string, signal: AbortSignal): Promise<AppState> {
    return this.guard('read the app’s state', () => lifecycle.appState(this.ctx, appId, signal));
  }

  backgroundApp(seconds: number | undefined, signal: AbortSignal): Promise<void> {
    return this.guard('send the app to the background', () => lifecycle.backgroundApp(this.ctx, seconds, signal));
  }

  setPermission(appId: string, permission: Permission, state: PermissionState, signal: AbortSignal): Promise<void> {
    return this.guard(`set the ${permission} permission`, () => environment.setPermission(this.ctx, appId, permission, state, signal));
  }

  setLocation(location: GeoLocation | undefined, signal: AbortSignal): Promise<void> {
    return this.guard(location ? 'simulate a position' : 'stop simulating a position', () => environment.setLocation(this.ctx, location, signal));
  }

  /**
   * Unsupported: a fingerprint touch exists only in the Android emulator's own console (`finger touch`, a
   * separate port with its own token), never over the debugging connection, and a real phone's sensor cannot be
   * faked at all; the virtual Android models a phone, not the emulator's console.
   */
  biometric(_action: BiometricAction, _signal: AbortSignal): Promise<void> {
    return this.unsupported(
      'simulate a fingerprint',
      'Android offers no command for it over the debugging connection; only the Android emulator’s own console can fake a fingerprint touch, and a real phone’s sensor cannot be faked.',
    );
  }

  pushNotification(notification: PushNotification, signal: AbortSignal): Promise<void> {
    return this.guard('show the notification', () => environment.pushNotification(this.ctx, notification, signal));
  }

  addMedia(file: MediaFile, signal: AbortSignal): Promise<void> {
    return this.guard(`add the ${file.kind} to the gallery`, () => environment.addMedia(this.ctx, file, signal));
  }

  openUrl(url: string, signal: AbortSignal): Promise<void> {
    return this.guard('open the address', () => device.openUrl(this.ctx, url, signal));
  }

  setOrientation(orientation: Orientation, signal: AbortSignal): Promise<void> {
    return this.guard(`turn to ${orientation}`, () => device.setOrientation(this.ctx, orientation, signal));
  }

  getClipboard(_signal: AbortSignal): Promise<string> {
    return this.unsupported('read the clipboard', 'since Android 10 only the app in front (or the keyboard) may read it, and the debugging shell is neither.');
  }

  setClipboard(_text: string, _signal: AbortSignal): Promise<void> {
    return this.unsupported('set the clipboard', 'Android offers no system command that writes it; only an app running on the phone can.');
  }

  setLocked(locked: boolean, signal: AbortSignal): Promise<void> {
    return this.guard(locked ? 'lock the screen' : 'unlock the screen', () => device.setLocked(this.ctx, locked, signal));
  }

  alert(signal: AbortSignal): Promise<AlertInfo | undefined> {
    return this.guard('read the alert', () => alerts.alert(this.ctx, signal));
  }

  handleAlert(action: AlertAction, signal: AbortSignal): Promise<void> {
    return this.guard('answer the alert', () => alerts.handleAlert(this.ctx, action, signal));
  }

  setAppearance(appearance: Appearance, signal: AbortSignal): Promise<void> {
    return this.guard(`switch to ${appearance} mode`, () => device.setAppearance(this.ctx, appearance, signal));
  }

  async *logs(query: LogQuery, signal: AbortSignal): AsyncGenerator<LogEntry> {
    try {
      yield* evidence.logs(this.ctx, query, signal);
    } catch (error) {
      throw translateAdbFailure(error, this.ctx.where, 'read its log');
    }
  }

  crashReports(query: { app?: string; sinceMs?: number }, signal: AbortSignal): Promise<CrashSummary[]> {
    return this.guard('list its crash reports', () => evidence.crashReports(this.ctx, query, signal));
  }

  crashReport(id: string, signal: AbortSignal): Promise<CrashReport | undefined> {
    return this.guard('read a crash report', () => evidence.crashReport(this.ctx, id, signal));
  }

  /** A round trip through the server to the device's shell. */
  async ping(signal: AbortSignal): Promise<void> {
    await this.guard('answer', async () => okText(await shellLine(this.ctx, 'echo ok', signal)));
  }

  /** Releases a direct connection; through a server nothing is held (each call's connection closes with it). */
  async close(_signal: AbortSignal): Promise<void> {
    await this.ctx.transport.close();
  }
}

export function createAdbDriver(options: AdbDriverOptions): AdbDriver {
  return new AdbDriver(options);
}
