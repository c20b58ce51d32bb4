import {
  TIMEOUT_DEFAULTS,
  type DeviceDriver,
  type DriverStatus,
  type HardwareButton,
  type AppList,
  type Point,
  type RawScreenshot,
  type ScreenGeometry,
  type SwipeGesture,
  type TypeTextRequest,
  type UiNode,
} from '@apex/port';
import { WebDriverHttpClient } from '@apex/webdriver-http';
import * as apps from './commands/apps';
import * as device from './commands/device';
import * as gestures from './commands/gestures';
import * as keyboard from './commands/keyboard';
import * as screen from './commands/screen';
import * as source from './commands/source';
import { translateError } from './errors';
import { WdaSession } from './http/wda-session';
import type { WdaContext } from './wda-context';

export interface WdaDriverOptions {
  /** The device's id in Apex, used in error messages. */
  deviceId: string;
  /** Where the device's automation server listens, e.g. http://127.0.0.1:8100. */
  url: string;
  /** Bound on one TCP connect (default 3 s): an unreachable phone fails fast as offline. */
  connectTimeoutMs?: number;
}

/**
 * A DeviceDriver for an iPhone through its WebDriverAgent HTTP server. Units are points. Every call ends
 * when its signal aborts (the request's socket is closed); the only bound of its own is the connect. Every
 * failure leaves as an ApexError (see errors.ts); the protocol's text stays in `cause`.
 */
export class WdaDriver implements DeviceDriver {
  readonly platform = 'ios' as const;
  private readonly ctx: WdaContext;
  private readonly client: WebDriverHttpClient;
  private readonly session: WdaSession;

  constructor(private readonly options: WdaDriverOptions) {
    this.client = new WebDriverHttpClient({
      baseUrl: options.url,
      connectTimeoutMs: options.connectTimeoutMs ?? TIMEOUT_DEFAULTS.connectMs,
    });
    // A new session after a lost one may be another boot of the device: forget its scale.
    this.session = new WdaSession(this.client, () => {
      this.ctx.scale = undefined;
    });
    this.ctx = { deviceId: options.deviceId, client: this.client, session: this.session };
  }

  status(signal: AbortSignal): Promise<DriverStatus> {
    return this.guard('read its status', () => device.status(this.ctx, signal));
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

  typeText(request: TypeTextRequest, signal: AbortSignal): Promise<void> {
    return this.guard('type text', () => keyboard.typeText(this.ctx, request, signal));
  }

  pressButton(button: HardwareButton, signal: AbortSignal): Promise<void> {
    return this.guard(`press the ${button} button`, () => device.pressButton(this.ctx, button, signal));
  }

  launchApp(appId: string, signal: AbortSignal): Promise<void> {
    return this.guard(`launch ${appId}`, () => apps.launchApp(this.ctx, appId, signal));
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

  /** Ends the session (best effort) and closes the kept-alive sockets. */
  async close(signal: AbortSignal): Promise<void> {
    await this.session.end(signal);
    this.client.close();
  }

  /** The id of the session in use, if one was created (for diagnostics and tests). */
  get sessionId(): string | undefined {
    return this.session.currentId;
  }

  private async guard<T>(action: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw translateError(error, this.options.deviceId, action);
    }
  }
}

export function createWdaDriver(options: WdaDriverOptions): WdaDriver {
  return new WdaDriver(options);
}
