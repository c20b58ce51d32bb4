import { ApexError } from '@apex/errors';
import {
  TIMEOUT_DEFAULTS,
  type AlertAction,
  type AlertInfo,
  type AppList,
  type AppRef,
  type Appearance,
  type CrashReport,
  type CrashSummary,
  type LogEntry,
  type LogQuery,
  type DeviceDriver,
  type DriverStatus,
  type HardwareButton,
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
import { okText, shellLine, type AdbContext } from './adb-context';
import { AdbServerClient, type AdbServerAddress } from './adb-server/adb-server-client';
import * as alerts from './commands/alerts';
import * as apps from './commands/apps';
import * as device from './commands/device';
import * as evidence from './commands/evidence';
import * as keyboard from './commands/keyboard';
import * as screen from './commands/screen';
import * as touch from './commands/touch';
import { translateAdbFailure } from './errors';

export const DEFAULT_ADB_SERVER: AdbServerAddress = { host: '127.0.0.1', port: 5037 };

export interface AdbDriverOptions {
  /** The device's id in Apex, used in messages. */
  deviceId: string;
  /** The adb server that holds the device (default 127.0.0.1:5037, the one Android Studio and platform-tools start). */
  server?: AdbServerAddress;
  /**
   * The device as the server lists it (`emulator-5554`, a USB serial), or `{ host: 'HOST:PORT' }` for a device's
   * adbd over TCP: the server is asked to connect to it (`host:connect:`) when it does not know it yet.
   */
  device: { serial: string } | { host: string };
  /** Bound on one TCP connect to the server (default 3 s). */
  connectTimeoutMs?: number;
}

/**
 * A DeviceDriver for an Android phone through the adb server's protocol, spoken from Node (no `adb` process).
 * Every call opens one stream to the device (the server keeps the device's transport); the signal closes it,
 * which ends the command on the device too. Units are dp; failures leave as ApexErrors (errors.ts).
 */
export class AdbDriver implements DeviceDriver {
  readonly platform = 'android' as const;
  private readonly ctx: AdbContext;

  constructor(options: AdbDriverOptions) {
    const server = options.server ?? DEFAULT_ADB_SERVER;
    const serial = 'serial' in options.device ? options.device.serial : options.device.host;
    this.ctx = {
      deviceId: options.deviceId,
      serial,
      client: new AdbServerClient(server, options.connectTimeoutMs ?? TIMEOUT_DEFAULTS.connectMs),
      where: { deviceId: options.deviceId, serial, server: `${server.host}:${server.port}` },
      ...('host' in options.device ? { connectTo: options.device.host } : {}),
    };
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

  terminateApp(appId: string, signal: AbortSignal): Promise<boolean> {
    return this.guard('stop the app', () => apps.terminateApp(this.ctx, appId, signal));
  }

  listApps(signal: AbortSignal): Promise<AppList> {
    return this.guard('list its apps', () => apps.listApps(this.ctx, signal));
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

  /** Nothing to release: each call's stream closes with the call; the server keeps its own connection. */
  async close(_signal: AbortSignal): Promise<void> {
    /* nothing held */
  }
}

export function createAdbDriver(options: AdbDriverOptions): AdbDriver {
  return new AdbDriver(options);
}
