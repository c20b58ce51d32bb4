import { ApexError } from '@apex/errors';
import type {
  AlertAction,
  AlertInfo,
  Appearance,
  AppList,
  DeviceDriver,
  DriverStatus,
  HardwareButton,
  LongPressGesture,
  Orientation,
  PinchGesture,
  Platform,
  Point,
  RawScreenshot,
  ScreenGeometry,
  SwipeGesture,
  TypeTextRequest,
  UiNode,
} from '@apex/port';
import type { OptionalAbility } from '../hub/device-hub';

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
  | 'ping'
  | 'longPress'
  | 'doubleTap'
  | 'pinch'
  | 'openUrl'
  | 'setOrientation'
  | 'getClipboard'
  | 'setClipboard'
  | 'setLocked'
  | 'hideKeyboard'
  | 'alert'
  | 'handleAlert'
  | 'setAppearance';

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
  /** Leave out these optional abilities (a driver that lacks them). */
  without?: OptionalAbility[];
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
  /** The state the controls change, as a device would keep it (status() reports orientation and lock). */
  orientation: Orientation = 'portrait';
  locked = false;
  clipboard = '';
  appearance: Appearance = 'light';
  /** The alert on screen, if any; answering it removes it. */
  shownAlert: AlertInfo | undefined;
  listApps?: (signal: AbortSignal) => Promise<AppList>;
  ping?: (signal: AbortSignal) => Promise<void>;
  longPress?: (gesture: LongPressGesture, signal: AbortSignal) => Promise<void>;
  doubleTap?: (point: Point, signal: AbortSignal) => Promise<void>;
  pinch?: (gesture: PinchGesture, signal: AbortSignal) => Promise<void>;
  openUrl?: (url: string, signal: AbortSignal) => Promise<void>;
  setOrientation?: (orientation: Orientation, signal: AbortSignal) => Promise<void>;
  getClipboard?: (signal: AbortSignal) => Promise<string>;
  setClipboard?: (text: string, signal: AbortSignal) => Promise<void>;
  setLocked?: (locked: boolean, signal: AbortSignal) => Promise<void>;
  hideKeyboard?: (signal: AbortSignal) => Promise<void>;
  alert?: (signal: AbortSignal) => Promise<AlertInfo | undefined>;
  handleAlert?: (action: AlertAction, signal: AbortSignal) => Promise<void>;
  setAppearance?: (appearance: Appearance, signal: AbortSignal) => Promise<void>;
  private readonly behaviours = new Map<FakeMethod, (...args: unknown[]) => Promise<unknown>>();

  constructor(options: FakeDriverOptions = {}) {
    this.platform = options.platform ?? 'ios';
    this.geometry = options.screen ?? { width: 390, height: 844, scale: 3 };
    if (!options.withoutListApps) {
      this.listApps = (signal) => this.call('listApps', [], signal, async () => ({ apps: [{ appId: 'com.example.fake', running: true }], complete: false }));
    }
    if (!options.withoutPing) this.ping = (signal) => this.call('ping', [], signal, async () => undefined);
    this.addControls(new Set(options.without ?? []));
  }

  /** The optional control methods, each recording its call and keeping the state above. */
  private addControls(without: Set<OptionalAbility>): void {
    const done = async () => undefined;
    const controls: Partial<DeviceDriver> = {
      longPress: (gesture, signal) => this.call('longPress', [gesture], signal, done),
      doubleTap: (point, signal) => this.call('doubleTap', [point], signal, done),
      pinch: (gesture, signal) => this.call('pinch', [gesture], signal, done),
      openUrl: (url, signal) => this.call('openUrl', [url], signal, done),
      setOrientation: (orientation, signal) =>
        this.call('setOrientation', [orientation], signal, async () => {
          if (orientation !== this.orientation) this.geometry = { ...this.geometry, width: this.geometry.height, height: this.geometry.width };
          this.orientation = orientation;
        }),
      getClipboard: (signal) => this.call('getClipboard', [], signal, async () => this.clipboard),
      setClipboard: (text, signal) =>
        this.call('setClipboard', [text], signal, async () => {
          this.clipboard = text;
        }),
      setLocked: (locked, signal) =>
        this.call('setLocked', [locked], signal, async () => {
          this.locked = locked;
        }),
      hideKeyboard: (signal) => this.call('hideKeyboard', [], signal, done),
      alert: (signal) => this.call('alert', [], signal, async () => this.shownAlert),
      handleAlert: (action, signal) =>
        this.call('handleAlert', [action], signal, async () => {
          if (!this.shownAlert) throw new ApexError('element_not_found', 'No alert is shown.');
          this.shownAlert = undefined;
        }),
      setAppearance: (appearance, signal) =>
        this.call('setAppearance', [appearance], signal, async () => {
          this.appearance = appearance;
        }),
    };
    for (const [ability, method] of Object.entries(controls) as [OptionalAbility, unknown][]) {
      if (!without.has(ability)) Object.assign(this, { [ability]: method });
    }
    if (without.has('listApps')) this.listApps = undefined;
    if (without.has('ping')) this.ping = undefined;
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
    return this.call('status', [], signal, async () => ({
      platform: this.platform,
      screen: { ...this.geometry },
      osVersion: '17.5',
      model: 'Fake Phone',
    }));
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
