import { ApexError } from '@apex/errors';
import type { Point, ScreenGeometry, DeviceDriver, DriverStatus, HardwareButton, AppList, Platform, RawScreenshot, SwipeGesture, TypeTextRequest, UiNode } from '@apex/port';

export type FakeMethod =
  | 'status'
  | 'screen'
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
  /** The arguments before the signal. */
  args: unknown[];
  signal: AbortSignal;
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
 * Every call is recorded in `calls` (with its signal), and `events` logs `start:<method>` / `end:<method>`
 * around each one. `behave(method, fn)` replaces a method's body (e.g. to delay, fail, or block on a
 * promise); it gets the call's arguments and then its signal, and may honour or ignore it. `offline` makes
 * every call fail with `device_offline`. A call whose signal has already aborted rejects with its reason.
 */
export class FakeDriver implements DeviceDriver {
  readonly platform: Platform;
  /** What `screen()` and `status()` report; set it to model a rotation. */
  geometry: ScreenGeometry;
  offline = false;
  readonly calls: FakeCall[] = [];
  readonly events: string[] = [];
  closed = false;
  listApps?: (signal: AbortSignal) => Promise<AppList>;
  ping?: (signal: AbortSignal) => Promise<void>;
  private readonly behaviours = new Map<FakeMethod, (...args: unknown[]) => Promise<unknown>>();

  constructor(options: FakeDriverOptions = {}) {
    this.platform = options.platform ?? 'ios';
    this.geometry = options.screen ?? { width: 390, height: 844, scale: 3 };
    if (!options.withoutListApps) {
      this.listApps = (signal) => this.call('listApps', [], signal, async () => ({ apps: [{ appId: 'com.example.fake', running: true }], complete: false }));
    }
    if (!options.withoutPing) this.ping = (signal) => this.call('ping', [], signal, async () => undefined);
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

  status(signal: AbortSignal): Promise<DriverStatus> {
    return this.call('status', [], signal, async () => ({ platform: this.platform, screen: { ...this.geometry }, osVersion: '17.5', model: 'Fake Phone' }));
  }

  screen(signal: AbortSignal): Promise<ScreenGeometry> {
    return this.call('screen', [], signal, async () => ({ ...this.geometry }));
  }

  screenshot(signal: AbortSignal): Promise<RawScreenshot> {
    return this.call('screenshot', [], signal, async () => ({ png: TINY_PNG, width: 1, height: 1, scale: 1 }));
  }

  tap(point: Point, signal: AbortSignal): Promise<void> {
    return this.call('tap', [point], signal, async () => undefined);
  }

  swipe(gesture: SwipeGesture, signal: AbortSignal): Promise<void> {
    return this.call('swipe', [gesture], signal, async () => undefined);
  }

  typeText(request: TypeTextRequest, signal: AbortSignal): Promise<void> {
    return this.call('typeText', [request], signal, async () => undefined);
  }

  pressButton(button: HardwareButton, signal: AbortSignal): Promise<void> {
    return this.call('pressButton', [button], signal, async () => undefined);
  }

  launchApp(appId: string, signal: AbortSignal): Promise<void> {
    return this.call('launchApp', [appId], signal, async () => undefined);
  }

  terminateApp(appId: string, signal: AbortSignal): Promise<boolean> {
    return this.call('terminateApp', [appId], signal, async () => true);
  }

  uiTree(signal: AbortSignal): Promise<UiNode> {
    return this.call('uiTree', [], signal, async () => ({
      id: 'root',
      role: 'app' as const,
      bounds: { x: 0, y: 0, width: this.geometry.width, height: this.geometry.height },
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

  private async call<T>(method: FakeMethod, args: unknown[], signal: AbortSignal, fallback: () => Promise<T>): Promise<T> {
    this.calls.push({ method, args, signal });
    this.events.push(`start:${method}`);
    try {
      if (this.offline) throw new ApexError('device_offline', 'The fake device is offline.');
      signal.throwIfAborted();
      const behaviour = this.behaviours.get(method);
      return behaviour ? ((await behaviour(...args, signal)) as T) : await fallback();
    } finally {
      this.events.push(`end:${method}`);
    }
  }
}
