import type { DeviceDriver, DriverStatus, HardwareButton, InstalledApp, Platform, Point, RawScreenshot, SwipeGesture, TypeTextRequest, UiNode } from '@apex/port';
import { invalidInput } from '@apex/errors';
import { WebDriverHttpClient } from '@apex/webdriver-http';
import { z } from 'zod';
import { androidCommands } from './android/commands';
import { checkedCapabilities, sessionCapabilities } from './capabilities';
import type { AppiumContext } from './context';
import { translateError } from './errors';
import { AppiumSession } from './http/appium-session';
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
  /** Bound on one request (default 15 s). Keep it at or below the hub's action timeout. */
  requestTimeoutMs?: number;
  /** Bound on one TCP connect to the server (default 3 s). */
  connectTimeoutMs?: number;
  /** Bound on screenshots and the UI tree (default 30 s). */
  slowRequestTimeoutMs?: number;
  /**
   * Bound on creating a session (default 120 s): on a Mac the server may build and start the on-device agent
   * first. A caller that gives up earlier (the hub's action limit) leaves the creation running for the next call.
   */
  sessionStartTimeoutMs?: number;
}

const OptionsSchema = z.object({
  deviceId: z.string().min(1),
  serverUrl: z.url({ protocol: /^https?$/ }),
  capabilities: z.record(z.string(), z.unknown()),
  requestTimeoutMs: z.number().int().positive().optional(),
  connectTimeoutMs: z.number().int().positive().optional(),
  slowRequestTimeoutMs: z.number().int().positive().optional(),
  sessionStartTimeoutMs: z.number().int().positive().optional(),
});

/**
 * A DeviceDriver that drives a phone through an Appium server over the W3C WebDriver protocol: iOS with the
 * XCUITest driver (run here against the virtual iPhone), Android with UiAutomator2 (mapped, not run here).
 * Units are points (dp on Android). Every failure leaves as an ApexError (errors.ts) with the same codes as
 * the direct driver; the server's text stays in `cause`.
 */
export class AppiumDriver implements DeviceDriver {
  readonly platform: Platform;
  readonly listApps?: () => Promise<InstalledApp[]>;
  private readonly client: WebDriverHttpClient;
  private readonly session: AppiumSession;
  private readonly commands: PlatformCommands;

  constructor(private readonly options: AppiumDriverOptions) {
    const parsed = OptionsSchema.safeParse(options);
    if (!parsed.success) throw invalidInput(parsed.error.issues, 'driver options');
    const { capabilities, platform } = checkedCapabilities(options.capabilities);
    this.platform = platform;
    const connectTimeoutMs = options.connectTimeoutMs ?? 3_000;
    this.client = new WebDriverHttpClient({
      baseUrl: options.serverUrl,
      requestTimeoutMs: options.requestTimeoutMs ?? 15_000,
      connectTimeoutMs,
    });
    this.session = new AppiumSession(this.client, {
      capabilities: sessionCapabilities(capabilities, platform),
      startTimeoutMs: options.sessionStartTimeoutMs ?? 120_000,
    });
    const ctx: AppiumContext = {
      deviceId: options.deviceId,
      session: this.session,
      slowTimeoutMs: options.slowRequestTimeoutMs ?? 30_000,
      probeTimeoutMs: Math.max(connectTimeoutMs, 3_000),
    };
    this.commands = platform === 'ios' ? iosCommands(ctx) : androidCommands(ctx);
    const listApps = this.commands.listApps;
    if (listApps) this.listApps = () => this.guard('list the running apps', listApps);
  }

  status(): Promise<DriverStatus> {
    return this.guard('read its status', () => this.commands.status());
  }

  screenshot(): Promise<RawScreenshot> {
    return this.guard('take a screenshot', () => this.commands.screenshot());
  }

  tap(point: Point): Promise<void> {
    return this.guard('tap', () => this.commands.tap(point));
  }

  swipe(gesture: SwipeGesture): Promise<void> {
    return this.guard('swipe', () => this.commands.swipe(gesture));
  }

  typeText(request: TypeTextRequest): Promise<void> {
    return this.guard('type text', () => this.commands.typeText(request));
  }

  pressButton(button: HardwareButton): Promise<void> {
    return this.guard(`press the ${button} button`, () => this.commands.pressButton(button));
  }

  launchApp(appId: string): Promise<void> {
    return this.guard(`launch ${appId}`, () => this.commands.launchApp(appId));
  }

  terminateApp(appId: string): Promise<boolean> {
    return this.guard(`terminate ${appId}`, () => this.commands.terminateApp(appId));
  }

  uiTree(): Promise<UiNode> {
    return this.guard('read the screen elements', () => this.commands.uiTree());
  }

  ping(): Promise<void> {
    return this.guard('answer a health check', () => this.commands.ping());
  }

  /** Ends the session on the server (best effort) and closes the kept-alive sockets. */
  async close(): Promise<void> {
    await this.session.end();
    this.client.close();
  }

  /** The server's id of the session in use, if one was created (for diagnostics and tests). */
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

export function createAppiumDriver(options: AppiumDriverOptions): AppiumDriver {
  return new AppiumDriver(options);
}
