import { ApexError } from '@apex/errors';
import type { Point, ScreenGeometry, DeviceDriver, DriverStatus, HardwareButton, InstalledApp, Platform, RawScreenshot, SwipeGesture, TypeTextRequest, UiNode } from '@apex/port';

export type FakeMethod =
  | 'status'
  | 'screenshot'
  | 'tap'
  | 'swipe'
  | 'typeText'
  | 'pressButton'
  | 'launchApp'
  | 'terminateApp'
  | 'listApps'
  | 'uiTree'
  | 'ping';

export interface FakeCall {
  method: FakeMethod;
  args: unknown[];
}

export interface FakeDriverOptions {
  platform?: Platform;
  screen?: ScreenGeometry;
  /** Leave out `listApps` to model a driver without that ability. */
  withoutListApps?: boolean;
  /** Leave out `ping` (the hub then probes with `status()`). */
  withoutPing?: boolean;
}

/** A 1×1 transparent PNG. */
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * An in-memory driver for unit tests of the hub and the primitives (queueing, health, validation). It is
 * not a device model: integration tests use a driver over the virtual iPhone instead.
 *
 * Every call is recorded in `calls`, and `events` logs `start:<method>` / `end:<method>` around each one.
 * `behave(method, fn)` replaces a method's body (e.g. to delay, fail, or block on a promise); `offline`
 * makes every call fail with `device_offline`.
 */
export class FakeDriver implements DeviceDriver {
  readonly platform: Platform;
  screen: ScreenGeometry;
  offline = false;
  readonly calls: FakeCall[] = [];
  readonly events: string[] = [];
  closed = false;
  listApps?: () => Promise<InstalledApp[]>;
  ping?: () => Promise<void>;
  private readonly behaviours = new Map<FakeMethod, (...args: unknown[]) => Promise<unknown>>();

  constructor(options: FakeDriverOptions = {}) {
    this.platform = options.platform ?? 'ios';
    this.screen = options.screen ?? { width: 390, height: 844, scale: 3 };
    if (!options.withoutListApps) {
      this.listApps = () => this.call('listApps', [], async () => [{ appId: 'com.example.fake', running: true }]);
    }
    if (!options.withoutPing) this.ping = () => this.call('ping', [], async () => undefined);
  }

  /** Replaces the body of one method; pass undefined to restore the default. */
  behave(method: FakeMethod, fn: ((...args: unknown[]) => Promise<unknown>) | undefined): this {
    if (fn) this.behaviours.set(method, fn);
    else this.behaviours.delete(method);
    return this;
  }

  callsOf(method: FakeMethod): FakeCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  status(): Promise<DriverStatus> {
    return this.call('status', [], async () => ({ platform: this.platform, screen: { ...this.screen }, osVersion: '17.5', model: 'Fake Phone' }));
  }

  screenshot(): Promise<RawScreenshot> {
    return this.call('screenshot', [], async () => ({ png: TINY_PNG, width: 1, height: 1, scale: 1 }));
  }

  tap(point: Point): Promise<void> {
    return this.call('tap', [point], async () => undefined);
  }

  swipe(gesture: SwipeGesture): Promise<void> {
    return this.call('swipe', [gesture], async () => undefined);
  }

  typeText(request: TypeTextRequest): Promise<void> {
    return this.call('typeText', [request], async () => undefined);
  }

  pressButton(button: HardwareButton): Promise<void> {
    return this.call('pressButton', [button], async () => undefined);
  }

  launchApp(appId: string): Promise<void> {
    return this.call('launchApp', [appId], async () => undefined);
  }

  terminateApp(appId: string): Promise<boolean> {
    return this.call('terminateApp', [appId], async () => true);
  }

  uiTree(): Promise<UiNode> {
    return this.call('uiTree', [], async () => ({
      id: 'root',
      role: 'app' as const,
      bounds: { x: 0, y: 0, width: this.screen.width, height: this.screen.height },
      enabled: true,
      visible: true,
      selected: false,
      focused: false,
      children: [],
    }));
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private async call<T>(method: FakeMethod, args: unknown[], fallback: () => Promise<T>): Promise<T> {
    this.calls.push({ method, args });
    this.events.push(`start:${method}`);
    try {
      if (this.offline) throw new ApexError('device_offline', 'The fake device is offline.');
      const behaviour = this.behaviours.get(method);
      return behaviour ? ((await behaviour(...args)) as T) : await fallback();
    } finally {
      this.events.push(`end:${method}`);
    }
  }
}
