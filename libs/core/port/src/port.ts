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
 * The port every driver implements, in neutral words. Units are points. Each method must finish or throw
 * an `ApexError` within the driver's configured timeout. Optional members are abilities some platforms
 * lack; callers reach them through the hub, which answers `unsupported_operation` when absent.
 */
export interface DeviceDriver {
  readonly platform: Platform;
  status(): Promise<DriverStatus>;
  screenshot(): Promise<RawScreenshot>;
  tap(point: Point): Promise<void>;
  swipe(gesture: SwipeGesture): Promise<void>;
  typeText(request: TypeTextRequest): Promise<void>;
  pressButton(button: HardwareButton): Promise<void>;
  launchApp(appId: string): Promise<void>;
  /** Resolves to false when the app was not running. */
  terminateApp(appId: string): Promise<boolean>;
  listApps?(): Promise<InstalledApp[]>;
  /** The root of the current screen's normalized tree. */
  uiTree(): Promise<UiNode>;
  /** Cheap reachability probe used by the hub's health checks. */
  ping?(): Promise<void>;
  /** Releases sessions and sockets. */
  close?(): Promise<void>;
}
