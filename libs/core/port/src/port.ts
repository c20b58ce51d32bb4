import type { Point, ScreenGeometry } from './geometry';
import type { UiNode } from './ui-node';

export type Platform = 'ios' | 'android';

/** `back` and `recents` (the app switcher) exist on Android only; iOS drivers answer `unsupported_operation` for them. */
export const HARDWARE_BUTTONS = ['home', 'back', 'recents', 'volumeUp', 'volumeDown'] as const;
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
  /** Press and hold at `from` this long before moving (drag and drop, reordering); 0 or absent: no hold. */
  holdMs?: number;
}

export interface LongPressGesture {
  point: Point;
  durationMs: number;
}

/** Two fingers around `center`: `scale` > 1 spreads them (zooms in), < 1 pinches them together. */
export interface PinchGesture {
  center: Point;
  scale: number;
  durationMs: number;
}

export type Appearance = 'light' | 'dark';

/** A system or app alert on screen. */
export interface AlertInfo {
  title?: string;
  text?: string;
  /** Button labels, in the order the alert shows them. */
  buttons: string[];
}

export type AlertAction = { kind: 'accept' } | { kind: 'dismiss' } | { kind: 'press'; button: string };

export interface TypeTextRequest {
  text: string;
  /** Press the keyboard's return/submit key after typing. */
  submit?: boolean;
}

export interface InstalledApp extends AppRef {
  running?: boolean;
}

export interface AppList {
  apps: InstalledApp[];
  /** False when the device can only name the apps that are running (some iPhone connections). */
  complete: boolean;
}

/** Where an app stands on the device. */
export type AppState = 'notInstalled' | 'notRunning' | 'background' | 'foreground';

/**
 * A build on the Apex host, already checked (inside the allowed roots, a real bundle) and read by the capability
 * layer: an `.app` directory or an `.ipa`/`.zip` of one (iOS), an `.apk` (Android).
 */
export interface AppBuild {
  /** Absolute, resolved path on the Apex host. */
  path: string;
  kind: 'app' | 'ipa' | 'apk';
  /** Bundle id / package name, read from the build itself. */
  appId: string;
  name: string;
  version?: string;
}

/** The permissions Apex can set, in neutral words; each driver maps them onto its platform's own. */
export const PERMISSIONS = [
  'location',
  'locationAlways',
  'camera',
  'microphone',
  'photos',
  'contacts',
  'calendar',
  'reminders',
  'notifications',
  'motion',
] as const;
export type Permission = (typeof PERMISSIONS)[number];
export type PermissionState = 'granted' | 'denied' | 'unset';

/** A simulated position (degrees, metres). */
export interface GeoLocation {
  latitude: number;
  longitude: number;
  altitude?: number;
}

export type BiometricAction = 'enroll' | 'unenroll' | 'match' | 'fail';

export interface PushNotification {
  appId: string;
  title: string;
  body: string;
  /** Extra keys for the app (JSON object). */
  payload?: Record<string, unknown>;
}

/**
 * How to start an app beyond "open it": each field the driver must pass on, or refuse the whole launch with
 * `unsupported_operation` — never drop one silently.
 */
export interface LaunchOptions {
  /** Process arguments, in order (iOS: e.g. `-AppleLanguages (fr)`; Android: intent extras the driver maps). */
  arguments?: string[];
  /** Environment variables of the app's process. */
  environment?: Record<string, string>;
  /** The app's language and region, a BCP 47 tag such as `fr-FR`; the driver translates it for its platform. */
  locale?: string;
}

/** A photo or video on the Apex host (already checked) to add to the device's photo library / gallery. */
export interface MediaFile {
  path: string;
  kind: 'photo' | 'video';
}

/** Severity of a device log line, least to most severe; each driver maps its platform's own levels onto these. */
export const LOG_LEVELS = ['debug', 'info', 'error', 'fault'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** One line of the device's log. */
export interface LogEntry {
  /** Milliseconds since the epoch. */
  time: number;
  level: LogLevel;
  /** The process that wrote it (a tag or subsystem may lead the message). */
  process: string;
  pid?: number;
  /** Bundle id / package name of the app that wrote it, where known. */
  app?: string;
  message: string;
}

/** What to read of the log; a driver narrows its source with it where it can (the caller filters again). */
export interface LogQuery {
  /** Only lines at or after this instant (ms since the epoch). */
  sinceMs?: number;
  app?: string;
  /** Only lines at this level or a more severe one. */
  minLevel?: LogLevel;
}

/** A crash report the device keeps, in brief. */
export interface CrashSummary {
  /** Stable while the report exists; pass it to `crashReport`. */
  id: string;
  /** The app that crashed (bundle id / package name). */
  app: string;
  /** Milliseconds since the epoch. */
  time: number;
  /** Exception type or class, e.g. `EXC_CRASH` or `java.lang.IllegalStateException`. */
  exception: string;
}

/** A crash report in full: the fields a person reads first, and the report's own text. */
export interface CrashReport extends CrashSummary {
  /** The signal that ended the process, where the platform names one (`SIGABRT`). */
  signal?: string;
  /** The exception's message or the termination reason. */
  reason?: string;
  /** The crashed thread's frames, innermost first, one line each. */
  frames: string[];
  /** The report as the device keeps it (the caller bounds what it returns). */
  text: string;
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
  /**
   * The app in front (undefined when the device cannot say): one cheap request, for reading after an action
   * without the whole status. Absent: the hub reads it from `status`.
   */
  foregroundApp?(signal: AbortSignal): Promise<AppRef | undefined>;
  /** The screen in points and its scale, for the current orientation: cheap (one round trip at most). */
  screen(signal: AbortSignal): Promise<ScreenGeometry>;
  screenshot(signal: AbortSignal): Promise<RawScreenshot>;
  tap(point: Point, signal: AbortSignal): Promise<void>;
  swipe(gesture: SwipeGesture, signal: AbortSignal): Promise<void>;
  typeText(request: TypeTextRequest, signal: AbortSignal): Promise<void>;
  pressButton(button: HardwareButton, signal: AbortSignal): Promise<void>;
  launchApp(appId: string, signal: AbortSignal): Promise<void>;
  /** Launches (a running app is restarted) with arguments, environment or locale; see LaunchOptions. */
  launchAppWith?(appId: string, options: LaunchOptions, signal: AbortSignal): Promise<void>;
  /** Resolves to false when the app was not running. */
  terminateApp(appId: string, signal: AbortSignal): Promise<boolean>;
  listApps?(signal: AbortSignal): Promise<AppList>;
  /** Installs (or replaces) a build; resolves `replaced: true` when a build with that id was there before. */
  installApp?(build: AppBuild, signal: AbortSignal): Promise<{ replaced: boolean }>;
  /** Rejects `app_not_found` for an app that is not installed, `unsupported_operation` for a system app. */
  uninstallApp?(appId: string, signal: AbortSignal): Promise<void>;
  /** Clears the app's data and permissions; it stays installed. */
  resetApp?(appId: string, signal: AbortSignal): Promise<void>;
  appState?(appId: string, signal: AbortSignal): Promise<AppState>;
  /** Sends the foreground app to the background; with `seconds`, brings it back after that long. */
  backgroundApp?(seconds: number | undefined, signal: AbortSignal): Promise<void>;
  setPermission?(appId: string, permission: Permission, state: PermissionState, signal: AbortSignal): Promise<void>;
  /** `undefined` clears the simulated location. */
  setLocation?(location: GeoLocation | undefined, signal: AbortSignal): Promise<void>;
  biometric?(action: BiometricAction, signal: AbortSignal): Promise<void>;
  pushNotification?(notification: PushNotification, signal: AbortSignal): Promise<void>;
  addMedia?(file: MediaFile, signal: AbortSignal): Promise<void>;
  longPress?(gesture: LongPressGesture, signal: AbortSignal): Promise<void>;
  doubleTap?(point: Point, signal: AbortSignal): Promise<void>;
  pinch?(gesture: PinchGesture, signal: AbortSignal): Promise<void>;
  /** A web address or an app's URL scheme; the caller has already refused unsafe schemes. */
  openUrl?(url: string, signal: AbortSignal): Promise<void>;
  setOrientation?(orientation: Orientation, signal: AbortSignal): Promise<void>;
  /** The pasteboard's plain text ('' when empty). */
  getClipboard?(signal: AbortSignal): Promise<string>;
  setClipboard?(text: string, signal: AbortSignal): Promise<void>;
  setLocked?(locked: boolean, signal: AbortSignal): Promise<void>;
  /** Resolves when no keyboard is shown any more (also when none was). */
  hideKeyboard?(signal: AbortSignal): Promise<void>;
  /** The alert on screen, or undefined when there is none. */
  alert?(signal: AbortSignal): Promise<AlertInfo | undefined>;
  /** Answers the alert on screen; rejects with `element_not_found` when there is none (or no such button). */
  handleAlert?(action: AlertAction, signal: AbortSignal): Promise<void>;
  setAppearance?(appearance: Appearance, signal: AbortSignal): Promise<void>;
  /**
   * The screen live, as JPEG frames (each one whole image), until the signal aborts or the device ends it. A
   * parallel read: it must not hold up the device's actions, and the hub never queues it.
   */
  stream?(signal: AbortSignal): AsyncIterable<Uint8Array>;
  /**
   * The device's log since `query.sinceMs`, oldest first, as the device has it now: the iteration ends when
   * the device has sent what it holds (a read, not a follow), or when the signal aborts.
   */
  logs?(query: LogQuery, signal: AbortSignal): AsyncIterable<LogEntry>;
  /** The crash reports the device keeps, oldest first. */
  crashReports?(query: { app?: string; sinceMs?: number }, signal: AbortSignal): Promise<CrashSummary[]>;
  /** One crash report; undefined when the device has none with that id. */
  crashReport?(id: string, signal: AbortSignal): Promise<CrashReport | undefined>;
  /** The root of the current screen's normalized tree. */
  uiTree(signal: AbortSignal): Promise<UiNode>;
  /** Cheap reachability probe used by the hub's health checks. */
  ping?(signal: AbortSignal): Promise<void>;
  /** Releases sessions and sockets (best effort, until the signal aborts). */
  close?(signal: AbortSignal): Promise<void>;
}
