import type { DeviceDriver, DriverStatus, HardwareButton, InstalledApp, Point, RawScreenshot, SwipeGesture, TypeTextRequest, UiNode } from '@apex/port';
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
  /** Bound on one request (default 15 s). Keep it at or below the hub's action timeout. */
  requestTimeoutMs?: number;
  /** Bound on one TCP connect (default 3 s): an unreachable phone fails fast as offline. */
  connectTimeoutMs?: number;
  /** Bound on screenshots and the UI tree (default 30 s). */
  slowRequestTimeoutMs?: number;
}

/**
 * A DeviceDriver for an iPhone through its WebDriverAgent HTTP server. Units are points. Every failure
 * leaves as an ApexError (see errors.ts); the protocol's text stays in `cause`.
 */
export class WdaDriver implements DeviceDriver {
  readonly platform = 'ios' as const;
  private readonly ctx: WdaContext;
  private readonly client: WebDriverHttpClient;
  private readonly session: WdaSession;
  private readonly slowTimeoutMs: number;
  private readonly connectTimeoutMs: number;

  constructor(private readonly options: WdaDriverOptions) {
    this.connectTimeoutMs = options.connectTimeoutMs ?? 3_000;
    this.slowTimeoutMs = options.slowRequestTimeoutMs ?? 30_000;
    this.client = new WebDriverHttpClient({
      baseUrl: options.url,
      requestTimeoutMs: options.requestTimeoutMs ?? 15_000,
      connectTimeoutMs: this.connectTimeoutMs,
    });
    this.session = new WdaSession(this.client);
    this.ctx = { deviceId: options.deviceId, client: this.client, session: this.session, slowTimeoutMs: this.slowTimeoutMs };
  }

  status(): Promise<DriverStatus> {
    return this.guard('read its status', () => device.status(this.ctx));
  }

  screenshot(): Promise<RawScreenshot> {
    return this.guard('take a screenshot', () => screen.screenshot(this.ctx));
  }

  tap(point: Point): Promise<void> {
    return this.guard('tap', () => gestures.tap(this.ctx, point));
  }

  swipe(gesture: SwipeGesture): Promise<void> {
    return this.guard('swipe', () => gestures.swipe(this.ctx, gesture));
  }

  typeText(request: TypeTextRequest): Promise<void> {
    return this.guard('type text', () => keyboard.typeText(this.ctx, request));
  }

  pressButton(button: HardwareButton): Promise<void> {
    return this.guard(`press the ${button} button`, () => device.pressButton(this.ctx, button));
  }

  launchApp(appId: string): Promise<void> {
    return this.guard(`launch ${appId}`, () => apps.launchApp(this.ctx, appId));
  }

  terminateApp(appId: string): Promise<boolean> {
    return this.guard(`terminate ${appId}`, () => apps.terminateApp(this.ctx, appId));
  }

  /** Running apps only: the protocol cannot enumerate installed apps. */
  listApps(): Promise<InstalledApp[]> {
    return this.guard('list the running apps', () => apps.listRunningApps(this.ctx));
  }

  uiTree(): Promise<UiNode> {
    return this.guard('read the screen elements', () => source.uiTree(this.ctx));
  }

  ping(): Promise<void> {
    return this.guard('answer a health check', () => device.ping(this.ctx, this.connectTimeoutMs));
  }

  /** Ends the session (best effort) and closes the kept-alive sockets. */
  async close(): Promise<void> {
    await this.session.end();
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
