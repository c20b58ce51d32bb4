/**
 * The contract between the virtual phone (state, apps: `src/iphone/`, drawn with `src/engine/`) and its WebDriverAgent HTTP
 * face (`src/iphone/wda/`). The phone knows nothing of HTTP; the face knows nothing of drawing.
 * Element types here are the short iOS accessibility type names; the face adds WDA's `XCUIElementType` prefix.
 */

import type { ElementType, PhoneElement, Rect } from '../engine/element';
import type { GeoPosition, LaunchInfo, PhoneNotification, PrivacyPermission } from './apps/app';
import type { AppBundle } from './apps/installed-app';

export type { ElementType, PhoneElement, Rect };
export type { AppBundle, GeoPosition, LaunchInfo, PhoneNotification, PrivacyPermission };

export interface PhoneProfile {
  /** Profile key, e.g. "iphone-15", "iphone-se". */
  id: string;
  /** Human model name, e.g. "iPhone 15". */
  model: string;
  /** What Settings → General → About shows as Model Number. */
  modelNumber: string;
  /** Points. */
  width: number;
  height: number;
  scale: number;
  statusBarHeight: number;
  osVersion: string;
  /** The home screen turns to landscape (the Plus/Max iPhones); elsewhere it stays portrait. */
  homeScreenTurns?: boolean;
}

/** XCUIApplicationState numbers. */
export type AppRunState = 0 | 1 | 2 | 3 | 4;

export interface AppSummary {
  bundleId: string;
  name: string;
}

export interface RunningApp {
  bundleId: string;
  name: string;
  pid: number;
}

export interface AlertInfo {
  text: string;
  buttons: string[];
}

/** Why a phone action failed; the face maps `kind` to WDA's error names and HTTP statuses. */
export type PhoneErrorKind =
  | 'app_not_installed'
  | 'no_focused_element'
  | 'no_alert'
  | 'unknown_button'
  | 'invalid_argument'
  | 'element_gone'
  /** No installed app handles the URL's scheme. */
  | 'no_app_for_url'
  /** The keyboard is still shown after pressing the keys asked for. */
  | 'keyboard_stays'
  /** The screen shown cannot turn to the orientation asked for (the home and lock screens stay portrait). */
  | 'rotation_refused'
  /** A system app cannot be removed or reset. */
  | 'system_app';

/** What the pasteboard holds: `plaintext` and `url` are text, `image` PNG bytes. */
export type PasteboardType = 'plaintext' | 'image' | 'url';

export class PhoneError extends Error {
  constructor(
    readonly kind: PhoneErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'PhoneError';
  }
}

/**
 * The virtual phone as its HTTP face sees it. Every mutating call bumps `version`; `renderPng()` returns the
 * same bytes for the same state. Calls are synchronous: the phone is an in-memory model.
 */
export interface Phone {
  readonly profile: PhoneProfile;
  readonly version: number;
  /** Screen size in points for the current orientation. */
  screenSize(): { width: number; height: number };
  /** The Application element of the foreground app (SpringBoard on the home screen), with its subtree. */
  snapshot(): PhoneElement;
  /** Full-resolution PNG (points × scale) of what is on screen now. */
  renderPng(): Buffer;
  /** The same screen as raw opaque RGBA pixels (a copy), for encoders that would only decode the PNG again. */
  renderPixels(): { rgba: Buffer; width: number; height: number };

  tap(x: number, y: number): void;
  /**
   * A drag/swipe from one point to another (scrolls lists, pages home screens). `holdSec` is how long the finger
   * pressed before moving: from LONG_PRESS_SEC on, the drag picks up what it started on (reordering).
   */
  drag(fromX: number, fromY: number, toX: number, toY: number, holdSec: number): void;
  /** A press held at one point for `durationSec`; on a view without a long-press action it is a tap. */
  longPress(x: number, y: number, durationSec: number): void;
  doubleTap(x: number, y: number): void;
  /** Two fingers around (x, y) ending `scale` times as far apart (> 1 zooms in); throws `invalid_argument` unless scale > 0. */
  pinch(x: number, y: number, scale: number): void;
  /** Opens a URL in the app for its scheme (http(s): Safari, prefs: Settings, maps: Maps); throws `no_app_for_url`. */
  openUrl(url: string): void;
  /** The pasteboard's content of this type (empty when it holds nothing of it). */
  pasteboard(type: PasteboardType): Buffer;
  setPasteboard(type: PasteboardType, data: Buffer): void;
  keyboardShown(): boolean;
  /** Presses the first of these keys (or buttons, case-insensitive) the screen shows until the keyboard hides; throws `keyboard_stays`. */
  dismissKeyboard(keyNames: readonly string[]): void;
  /** Types into the focused text input; throws `no_focused_element` when none is focused. "\n" presses return. */
  typeText(text: string): void;
  /** Focuses (taps) the element with this uid; throws `element_gone` if it is not on screen. */
  focusElement(uid: string): void;
  /** Clears the text of the input with this uid. */
  clearElement(uid: string): void;
  /** "home" | "volumeup" | "volumedown" (case-insensitive); throws `unknown_button` otherwise. */
  pressButton(name: string): void;
  goHome(): void;

  installedApps(): AppSummary[];
  /**
   * Launches or activates; throws `app_not_installed`. With `launch`, a running app is restarted so its new
   * process gets those arguments and environment.
   */
  launchApp(bundleId: string, launch?: LaunchInfo): void;
  /** The arguments and environment the app's process was started with (empty when not running or none). */
  launchInfo(bundleId: string): LaunchInfo;
  /**
   * Sends the app in front to the background (the home screen shows); returns its bundle id, or null when the
   * home screen was in front already.
   */
  deactivateApp(): string | null;

  // ---- what a simulator's host tools do (install, privacy, location, biometrics, push, media) ----
  /** Installs a build (or replaces one with its id); its icon joins the home screen. Throws `invalid_argument` for a bad screens file. */
  installApp(bundle: AppBundle): { replaced: boolean };
  /** Throws `app_not_installed`, or `system_app` for Apple's apps. */
  uninstallApp(bundleId: string): void;
  /** Clears the app's data and permission answers (it is stopped); it stays installed. */
  resetApp(bundleId: string): void;
  setPermission(bundleId: string, permission: PrivacyPermission, state: 'granted' | 'denied' | 'unset'): void;
  permission(bundleId: string, permission: PrivacyPermission): 'granted' | 'denied' | 'unset';
  /** The simulated GPS position, or null to clear it. */
  setLocation(location: GeoPosition | null): void;
  location(): GeoPosition | null;
  /** enroll/unenroll a face; match/fail answer a Face ID prompt of the app in front (ignored when none waits). */
  biometric(action: 'enroll' | 'unenroll' | 'match' | 'fail'): void;
  biometricEnrolled(): boolean;
  /** A banner on top of the screen until tapped (opens the app) or the next touch elsewhere. Throws `app_not_installed`. */
  pushNotification(notification: PhoneNotification): void;
  /** Adds a photo or video to the library (Photos shows it first among Recents). */
  addMedia(kind: 'photo' | 'video'): void;
  /** Returns false when the app was not running. */
  terminateApp(bundleId: string): boolean;
  appState(bundleId: string): AppRunState;
  activeApp(): RunningApp;
  runningApps(): RunningApp[];

  alert(): AlertInfo | null;
  /** Presses the named alert button, or the default accept/dismiss button; throws `no_alert`. */
  acceptAlert(buttonLabel?: string): void;
  dismissAlert(buttonLabel?: string): void;

  isLocked(): boolean;
  lock(): void;
  unlock(): void;
  orientation(): 'PORTRAIT' | 'LANDSCAPE';
  setOrientation(orientation: 'PORTRAIT' | 'LANDSCAPE'): void;
  battery(): { level: number; state: 0 | 1 | 2 | 3 };
  deviceName(): string;
  appearance(): 'light' | 'dark';
  setAppearance(appearance: 'light' | 'dark'): void;
  /** An iOS update waiting to be installed ("iOS 17.6"), or none: Settings shows it in a row at the top. */
  setSoftwareUpdate(update: string | null): void;
}
