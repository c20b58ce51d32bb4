import type { Point, ScreenGeometry } from './geometry';
import type { UiNode } from './ui-node';

export type Platform = 'ios' | 'android';

export const HARDWARE_BUTTONS = ['home', 'volumeUp', 'volumeDown'] as const;
export type HardwareButton = (typeof HARDWARE_BUTTONS)[number];

export type Orientation = 'portrait' | 'landscape';

export interface BatteryState {
  /** 0..1 */
  level: number;
  state: 'unknown' | 'unplugged' | 'charging' | 'full';
}

export interface AppRef {
  /** Bundle id on iOS, package name on Android. */
  appId: string;
  name?: string;
}

/** What a driver knows about its device right now. Optional fields are "where known". */
export interface DriverStatus {
  platform: Platform;
  osVersion?: string;
  model?: string;
  name?: string;
  screen: ScreenGeometry;
  orientation?: Orientation;
  foregroundApp?: AppRef;
  battery?: BatteryState;
  locked?: boolean;
}

/** A capture at the device's native resolution. */
export interface RawScreenshot {
  png: Buffer;
  /** Pixels. */
  width: number;
  height: number;
  /** Pixels per point. */
  scale: number;
}

export interface SwipeGesture {
  from: Point;
  to: Point;
  durationMs: number;
}

export interface TypeTextRequest {
  text: string;
  /** Press the keyboard's return/submit key after typing. */
  submit?: boolean;
}

export interface InstalledApp extends AppRef {
  running?: boolean;
}

/**
 * The port every driver implements, in neutral words. Units are points. Every call takes an `AbortSignal`
 * as its last argument: when it aborts (the hub's time limit ran out, or the caller gave up) the driver stops
 * the call, down to its HTTP request, and rejects promptly. Drivers bound only their connect; the hub owns
 * the time limits. Optional members are abilities some platforms lack; callers reach them through the hub,
 * which answers `unsupported_operation` when absent.
 */
export interface DeviceDriver {
  readonly platform: Platform;
  status(signal: AbortSignal): Promise<DriverStatus>;
  /** The screen in points and its scale, for the current orientation: cheap (one round trip at most). */
  screen(signal: AbortSignal): Promise<ScreenGeometry>;
  screenshot(signal: AbortSignal): Promise<RawScreenshot>;
  tap(point: Point, signal: AbortSignal): Promise<void>;
  swipe(gesture: SwipeGesture, signal: AbortSignal): Promise<void>;
  typeText(request: TypeTextRequest, signal: AbortSignal): Promise<void>;
  pressButton(button: HardwareButton, signal: AbortSignal): Promise<void>;
  launchApp(appId: string, signal: AbortSignal): Promise<void>;
  /** Resolves to false when the app was not running. */
  terminateApp(appId: string, signal: AbortSignal): Promise<boolean>;
  listApps?(signal: AbortSignal): Promise<InstalledApp[]>;
  /** The root of the current screen's normalized tree. */
  uiTree(signal: AbortSignal): Promise<UiNode>;
  /** Cheap reachability probe used by the hub's health checks. */
  ping?(signal: AbortSignal): Promise<void>;
  /** Releases sessions and sockets (best effort, until the signal aborts). */
  close?(signal: AbortSignal): Promise<void>;
}
