import type { Rect } from '../engine/element';
import { Renderer } from '../engine/render/renderer';
import type { TextInput } from '../engine/ui/text-input';
import { dragTarget, gestureTarget, hitTest } from '../engine/view';
import type { AndroidView } from './android-view';
import type { AndroidAppDefinition, AndroidAppInstance, AndroidEnv, AppServices } from './apps/app';
import { AndroidPhoneError, AppProcesses, shortClass, SYSTEM_SERVER_PID } from './device/app-processes';
import type { ApkInfo } from '@apex/apk';
import { installedApp, type InstalledAppDefinition } from './apps/installed-app';
import { LocationService } from './device/location';
import { MediaStore } from './device/media-store';
import { Notifications, type PostedNotification } from './device/notifications';
import { permissionGroup, RuntimePermissions, type Grant, type PermissionFlag, type PermissionGroup, type PermissionRequest } from './device/runtime-permissions';
import { windowStack } from './device/window-stack';
import { CHROME_PACKAGE } from './apps/chrome';
import { Launcher, LAUNCHER_ACTIVITY, LAUNCHER_PACKAGE, recentsWindow } from './apps/launcher';
import { SETTINGS_PACKAGE, type SettingsInstance } from './apps/settings';
import { materialTheme } from './material';
import { ANDROID_PROFILES, DEFAULT_ANDROID_PROFILE_ID, pxPerDp, type AndroidProfile } from './profiles';
import { AndroidSystem } from './system/android-system';
import { Logcat } from './system/logcat';
import { GRANT_PERMISSIONS_ACTIVITY, PERMISSION_CONTROLLER } from './ui/permission-dialog';
import { NAV_BAR_HEIGHT, type NavButton } from './ui/system-bars';

export { AndroidPhoneError, shortClass } from './device/app-processes';

export interface AndroidPhoneOptions {
  /** A key of ANDROID_PROFILES: 'pixel-8' (default, 1080×2400 at 420 dpi) or 'small-phone' (720×1600 at 320). */
  profile?: string;
  /** Start in dark theme (default light). */
  dark?: boolean;
  /** Settings → About phone → Device name; default "Pixel 8" (the model). */
  deviceName?: string;
  /** The clock logcat stamps lines with (ms since the epoch); default Date.now. */
  now?: () => number;
}

/** What is in front, as `dumpsys window|activity` report it. */
export interface FocusInfo {
  /** The window with input focus: `com.android.chrome/org.chromium…ChromeTabbedActivity`, or `NotificationShade`. */
  window: string;
  /** The resumed activity as `pkg/class`. */
  pkg: string;
  activity: string;
  /** The package whose task holds it (the permission dialog runs in the asking app's task). */
  task: string;
}

/** Why an install failed, in PackageManager's codes (`Failure [CODE: message]`). */
export type InstallOutcome = { ok: true; replaced: boolean } | { ok: false; code: string; message: string };

export const LONG_PRESS_MS = 400;
const TAP_SLOP = 8;

/**
 * The virtual Android 14 phone: launcher, system bars, notification shade, recents, apps, the permission
 * dialog and the soft keyboard, drawn with the shared engine. Geometry is in dp; the shell converts pixels.
 * Every change bumps `version`; the same state draws the same PNG bytes.
 */
export class AndroidPhone {
  readonly profile: AndroidProfile;
  readonly system: AndroidSystem;
  readonly logcat: Logcat;
  private versionCounter = 0;
  private readonly processes: AppProcesses;
  private readonly permissions: RuntimePermissions;
  private readonly launcher = new Launcher();
  private shadeOpen = false;
  private recentsOpen = false;
  private awake = true;
  /** The keyguard: set when the screen goes off, dismissed by a swipe up or MENU (no PIN is set). */
  private locked = false;
  private readonly renderer: Renderer;
  private cache: { version: number; root: AndroidView; active: AndroidView } | null = null;
  private readonly services: AppServices;
  /** `cmd location`, `appops`: the simulated position and who may set it. */
  readonly location = new LocationService();
  /** What the media scanner found (Photos shows it). */
  readonly media = new MediaStore();
  readonly notifications = new Notifications();
  /** The notification floating over the app (heads-up), until it is tapped or anything else is touched. */
  private headsUpKey: string | null = null;

  constructor(options: AndroidPhoneOptions = {}) {
    const id = options.profile ?? DEFAULT_ANDROID_PROFILE_ID;
    const profile = Object.prototype.hasOwnProperty.call(ANDROID_PROFILES, id) ? ANDROID_PROFILES[id] : undefined;
    if (!profile) throw new AndroidPhoneError('invalid_argument', `unknown Android profile "${id}"; known: ${Object.keys(ANDROID_PROFILES).join(', ')}`);
    this.profile = profile;
    const deviceName = options.deviceName ?? profile.model;
    if (typeof deviceName !== 'string' || deviceName.trim() === '') throw new AndroidPhoneError('invalid_argument', 'deviceName must be a non-empty string');
    this.system = new AndroidSystem(deviceName, options.dark === true);
    this.logcat = new Logcat(options.now ?? Date.now);
    this.processes = new AppProcesses(this.system, this.logcat);
    this.permissions = new RuntimePermissions((message) => this.logcat.add(SYSTEM_SERVER_PID, 'I', 'PermissionController', message));
    this.renderer = new Renderer(pxPerDp(profile));
    this.services = {
      requestPermission: (pkg, permission, onResult) => {
        const group = permissionGroup(permission);
        // Install-time permissions need no dialog.
        if (group) this.permissions.request({ pkg, group, onResult });
        else onResult(true);
      },
      location: () => this.location.current(),
      media: () => this.media.list(),
      launch: (pkg) => this.bringToFront(pkg),
      openUrl: (url) => this.openUrlNow(url),
      log: (tag, message) => this.logcat.add(SYSTEM_SERVER_PID, 'I', tag, message),
      crash: (pkg, exception) =>
        this.change(() => {
          this.processes.crash(pkg, exception);
          this.permissions.processEnded(pkg);
        }),
    };
    this.logcat.add(SYSTEM_SERVER_PID, 'I', 'SystemServer', 'Entering the Android system server!');
    this.logcat.add(SYSTEM_SERVER_PID, 'I', 'ActivityTaskManager', `Displayed ${LAUNCHER_PACKAGE}/${shortClass(LAUNCHER_PACKAGE, LAUNCHER_ACTIVITY)}`);
  }

  get version(): number {
    return this.versionCounter;
  }

  /** Pixels per dp. */
  get scale(): number {
    return pxPerDp(this.profile);
  }

  /** 0 (portrait) or 1 (landscape, turned left) — 2 and 3 as `user_rotation` says. Auto-rotate keeps the phone upright. */
  rotation(): 0 | 1 | 2 | 3 {
    return this.system.get('system', 'accelerometer_rotation') === '1' ? 0 : this.system.rotation;
  }

  /** Screen size in dp for the current rotation. */
  screenSize(): { width: number; height: number } {
    const w = this.profile.widthPx / this.scale;
    const h = this.profile.heightPx / this.scale;
    return this.rotation() % 2 === 0 ? { width: w, height: h } : { width: h, height: w };
  }

  /** Screen size in pixels for the current rotation. */
  screenSizePx(): { width: number; height: number } {
    const { widthPx, heightPx } = this.profile;
    return this.rotation() % 2 === 0 ? { width: widthPx, height: heightPx } : { width: heightPx, height: widthPx };
  }

  // ---- state ---------------------------------------------------------------------------------------------

  /** Runs a change and bumps the version (caches are keyed by it). */
  change(apply: () => void): void {
    apply();
    this.versionCounter++;
  }

  isAwake(): boolean {
    return this.awake;
  }

  installed(): AndroidAppDefinition[] {
    return this.processes.installed();
  }

  app(pkg: string): AndroidAppDefinition | undefined {
    return this.processes.app(pkg);
  }

  uidOf(pkg: string): number | undefined {
    return this.processes.uidOf(pkg);
  }

  pidOf(pkg: string): number | undefined {
    return this.processes.pidOf(pkg);
  }

  runningPackages(): string[] {
    return this.processes.running();
  }

  private get foreground(): string | null {
    return this.processes.foreground;
  }

  private instance(pkg: string): AndroidAppInstance {
    return this.processes.instance(pkg);
  }

  shadeShown(): boolean {
    return this.shadeOpen;
  }

  isLocked(): boolean {
    return this.locked;
  }

  /** Awake and unlocked: what the user can reach with touches and the navigation keys. */
  private interactive(): boolean {
    return this.awake && !this.locked;
  }

  keyboardShown(): boolean {
    return this.interactive() && this.focusedInput() !== null && this.pendingShown() === null && !this.shadeOpen && !this.recentsOpen;
  }

  /** The app whose window is in front (the launcher's package on the home screen). */
  focus(): FocusInfo {
    const pending = this.pendingShown();
    if (pending) return { window: `${PERMISSION_CONTROLLER}/${GRANT_PERMISSIONS_ACTIVITY}`, pkg: PERMISSION_CONTROLLER, activity: GRANT_PERMISSIONS_ACTIVITY, task: pending.pkg };
    const resumed = this.resumed();
    // The keyguard lives in the NotificationShade window (Android 12+).
    if (this.shadeOpen || this.locked) return { window: 'NotificationShade', ...resumed, task: resumed.pkg };
    return { window: `${resumed.pkg}/${resumed.activity}`, ...resumed, task: resumed.pkg };
  }

  /** The resumed activity (under the shade, if it is open). */
  private resumed(): { pkg: string; activity: string } {
    if (this.foreground === null || this.recentsOpen) return { pkg: LAUNCHER_PACKAGE, activity: LAUNCHER_ACTIVITY };
    return { pkg: this.foreground, activity: this.instance(this.foreground).activity() };
  }

  private focusedInput(): TextInput | null {
    if (this.foreground === null || this.recentsOpen) return null;
    return this.instance(this.foreground).focusedInput();
  }

  private pendingShown(): PermissionRequest | null {
    return this.recentsOpen || this.locked ? null : this.permissions.shownOver(this.foreground);
  }

  // ---- what is on screen -----------------------------------------------------------------------------------

  /**
   * The layout space of the screen. In landscape the 3-button bar stands at the right edge, as on a Pixel: the
   * apps get the width left of it (`width`), while `screen` stays the whole display.
   */
  private env(): AndroidEnv {
    const { width, height } = this.screenSize();
    const landscape = this.rotation() % 2 === 1;
    return {
      width: landscape ? width - NAV_BAR_HEIGHT : width,
      height,
      top: landscape ? 28 : 40,
      bottom: landscape ? 0 : NAV_BAR_HEIGHT,
      theme: materialTheme(this.system.dark),
      screen: { x: 0, y: 0, width, height },
      profile: this.profile,
      system: this.system,
      services: this.services,
    };
  }

  /** Every window on screen, bottom to top, under one root. */
  root(): AndroidView {
    return this.build().root;
  }

  /** The window `uiautomator dump` reads (`getRootInActiveWindow`): the dialog, the shade, recents or the app. */
  activeWindow(): AndroidView {
    return this.build().active;
  }

  private build(): { root: AndroidView; active: AndroidView } {
    if (this.cache?.version === this.versionCounter) return this.cache;
    const env = this.env();
    let base: AndroidView;
    if (this.recentsOpen) {
      const tasks = this.processes.recents.map((p) => this.app(p)).filter((a): a is AndroidAppDefinition => a !== undefined);
      base = recentsWindow(env, tasks, (pkg) => this.bringToFront(pkg), () => this.clearRecents());
    } else if (this.foreground === null) {
      base = this.launcher.window(env, this.launchable(), (pkg) => this.bringToFront(pkg), () => (this.launcher.drawerOpen = true));
    } else {
      base = this.instance(this.foreground).window(env);
    }
    const pending = this.pendingShown();
    const headsUp = this.headsUpKey === null ? undefined : this.notifications.get(this.headsUpKey);
    const stack = windowStack({
      env,
      base,
      onHome: this.foreground === null || this.recentsOpen,
      pressNav: (b) => this.pressNav(b),
      keyboardFor: this.keyboardShown() ? this.focusedInput() : null,
      shade: this.shadeOpen
        ? {
            close: () => (this.shadeOpen = false),
            notifications: { list: this.notifications.active(), appName: (n) => this.posterName(n), open: (key) => this.openNotification(key) },
          }
        : null,
      headsUp: headsUp && this.interactive() ? { notification: headsUp, appName: this.posterName(headsUp), open: () => this.openNotification(headsUp.key) } : null,
      dialog: pending ? { appLabel: this.app(pending.pkg)?.label ?? pending.pkg, group: pending.group, answer: (a) => this.permissions.answer(a) } : null,
      awake: this.awake,
      keyguard: this.locked ? { unlock: () => (this.locked = false) } : null,
    });
    this.cache = { version: this.versionCounter, ...stack };
    return stack;
  }

  private screenRect(): Rect {
    return { x: 0, y: 0, ...this.screenSize() };
  }

  /** The screen as raw opaque RGBA pixels (a copy), as `screencap` without -p writes them. */
  renderPixels(): { rgba: Buffer; width: number; height: number } {
    this.renderPng();
    const pixels = this.renderer.lastPixels();
    if (!pixels) throw new Error('nothing was drawn');
    return pixels;
  }

  /** The screen as PNG bytes, at full resolution. */
  renderPng(): Buffer {
    const env = this.env();
    return this.renderer.png(`${this.versionCounter}`, env.screen.width, env.screen.height, env.theme, this.root(), () => undefined);
  }

  // ---- touch -------------------------------------------------------------------------------------------------

  tap(x: number, y: number): void {
    requireFinite({ x, y });
    if (!this.awake) return;
    const handler = hitTest(this.root(), x, y, this.screenRect())?.onTap;
    if (handler || this.headsUpKey !== null) {
      this.change(() => {
        // Touching anything but the heads-up puts it away (it stays in the shade).
        this.headsUpKey = null;
        handler?.(x, y);
      });
    }
  }

  /** A finger down at (x1,y1), moved to (x2,y2) over `durationMs`: a tap, a long press, a swipe or a scroll. */
  swipe(x1: number, y1: number, x2: number, y2: number, durationMs: number): void {
    requireFinite({ x1, y1, x2, y2, durationMs });
    if (!this.awake) return;
    const dx = x2 - x1;
    const dy = y2 - y1;
    if (Math.hypot(dx, dy) < TAP_SLOP) {
      if (durationMs >= LONG_PRESS_MS) this.longPress(x1, y1);
      else this.tap(x1, y1);
      return;
    }
    const env = this.env();
    // From the status bar down: the notification shade; up on the open shade: closes it.
    if (!this.shadeOpen && !this.locked && y1 <= env.top && dy > 100 && this.pendingShown() === null) {
      this.change(() => {
        this.shadeOpen = true;
        this.headsUpKey = null;
      });
      return;
    }
    if (this.shadeOpen && dy < -100) {
      this.change(() => (this.shadeOpen = false));
      return;
    }
    const handler = dragTarget(this.root(), x1, y1, this.screenRect())?.onDrag;
    if (handler) this.change(() => handler(dx, dy));
  }

  longPress(x: number, y: number): void {
    const handler = gestureTarget(this.root(), x, y, this.screenRect(), 'onLongPress')?.onLongPress;
    if (handler) this.change(() => handler(x, y));
    else this.tap(x, y);
  }

  /** A drag after a long press (drag and drop). Without a drop target it is a swipe. */
  dragAndDrop(x1: number, y1: number, x2: number, y2: number): void {
    requireFinite({ x1, y1, x2, y2 });
    const handler = gestureTarget(this.root(), x1, y1, this.screenRect(), 'onHoldDrag')?.onHoldDrag;
    if (handler) this.change(() => handler(x1, y1, x2, y2));
    else this.swipe(x1, y1, x2, y2, 300);
  }

  /** Types into the focused field, as the IME would; returns false when no field has focus. */
  typeText(text: string): boolean {
    const input = this.keyboardShown() ? this.focusedInput() : null;
    if (!input) return false;
    this.change(() => input.type(text));
    return true;
  }

  // ---- keys and buttons --------------------------------------------------------------------------------------

  private pressNav(button: NavButton): void {
    // Called from a tap handler: already inside a change.
    if (button === 'back') this.back();
    else if (button === 'home') this.home();
    else this.toggleRecents();
  }

  /** The Back key: the topmost thing that can go back does. */
  pressBack(): void {
    if (this.interactive()) this.change(() => this.back());
  }

  /** Home (as Back and Overview) does nothing while the screen is off or locked: only Power and Wakeup wake it. */
  pressHome(): void {
    if (this.interactive()) this.change(() => this.home());
  }

  pressAppSwitch(): void {
    if (this.interactive()) this.change(() => this.toggleRecents());
  }

  /** MENU on the lock screen dismisses it (an insecure keyguard, as `input keyevent 82` does). */
  pressMenu(): void {
    if (this.awake && this.locked) this.change(() => (this.locked = false));
  }

  /** `wm dismiss-keyguard`. */
  dismissKeyguard(): void {
    if (this.locked) this.change(() => (this.locked = false));
  }

  /** Power: the screen goes off (and the keyguard comes), or comes back on at the lock screen. */
  pressPower(): void {
    this.change(() => {
      this.awake = !this.awake;
      if (!this.awake) {
        this.locked = true;
        this.shadeOpen = false;
        this.recentsOpen = false;
      }
    });
    this.logcat.add(SYSTEM_SERVER_PID, 'I', 'PowerManagerService', this.awake ? 'Waking up from Asleep (uid=1000, reason=WAKE_REASON_POWER_BUTTON)...' : 'Going to sleep due to power_button (uid 1000)...');
  }

  setAwake(awake: boolean): void {
    if (this.awake !== awake) this.pressPower();
  }

  /** ENTER on the focused field. */
  pressEnter(): void {
    const input = this.keyboardShown() ? this.focusedInput() : null;
    if (input) this.change(() => input.pressReturn());
  }

  private back(): void {
    this.headsUpKey = null;
    if (this.pendingShown()) {
      this.permissions.answer('deny');
      return;
    }
    if (this.shadeOpen) {
      this.shadeOpen = false;
      return;
    }
    if (this.recentsOpen) {
      this.recentsOpen = false;
      return;
    }
    const input = this.focusedInput();
    if (input) {
      input.blur();
      return;
    }
    if (this.foreground === null) {
      this.launcher.reset();
      return;
    }
    // The root activity of a task goes to the background (Android 12+): the app keeps running.
    if (!this.instance(this.foreground).back()) this.processes.foreground = null;
  }

  private home(): void {
    this.headsUpKey = null;
    this.shadeOpen = false;
    this.recentsOpen = false;
    this.focusedInput()?.blur();
    this.processes.foreground = null;
    this.launcher.reset();
  }

  private toggleRecents(): void {
    this.shadeOpen = false;
    this.recentsOpen = !this.recentsOpen;
  }

  /** Overview's Clear all: every recent task is removed and its process stopped. */
  private clearRecents(): void {
    for (const pkg of [...this.processes.recents]) this.stopProcess(pkg);
    this.recentsOpen = false;
    this.processes.foreground = null;
  }

  openShade(open: boolean): void {
    this.change(() => (this.shadeOpen = open));
  }

  // ---- apps --------------------------------------------------------------------------------------------------

  /** Starts (or brings back) an app's task, as `am start` / a launcher tap does. */
  launch(pkg: string): void {
    if (!this.app(pkg)) throw new AndroidPhoneError('unknown_package', `Unknown package: ${pkg}`);
    this.change(() => this.bringToFront(pkg));
  }

  /** An activity started while the screen is off starts behind it (the screen stays off). */
  private bringToFront(pkg: string): void {
    if (!this.app(pkg)) return;
    this.shadeOpen = false;
    this.recentsOpen = false;
    this.launcher.reset();
    this.processes.bringToFront(pkg)?.resumed?.(this.services);
  }

  /** `am force-stop`: the process dies, its task leaves recents, a one-time grant ends. False if not installed. */
  forceStop(pkg: string): boolean {
    if (!this.app(pkg)) return false;
    this.change(() => this.stopProcess(pkg));
    this.processes.logForceStop(pkg);
    return true;
  }

  /** `pm clear`: the app stops and loses its data, its permission answers and its notifications. False if not installed. */
  clearData(pkg: string): boolean {
    if (!this.app(pkg)) return false;
    this.change(() => {
      this.processes.clearData(pkg);
      this.permissions.forget(pkg);
      this.notifications.cancelFor(pkg);
    });
    return true;
  }

  /** Apps with a launcher activity: the launcher's icons, `query-activities`. */
  launchable(): AndroidAppDefinition[] {
    return this.installed().filter((a) => a.launcherActivity !== '');
  }

  /**
   * Installs an app read from an APK (PackageManager's checks: a system app's package cannot be replaced by a
   * build signed by someone else, and a lower version code needs `allowDowngrade`).
   */
  installApk(info: ApkInfo, options: { allowDowngrade?: boolean } = {}): InstallOutcome {
    const existing = this.app(info.appId);
    if (existing && !existing.thirdParty) {
      return { ok: false, code: 'INSTALL_FAILED_UPDATE_INCOMPATIBLE', message: `Package ${info.appId} signatures do not match previously installed version; ignoring!` };
    }
    const before = existing as InstalledAppDefinition | undefined;
    if (before && (info.versionCode ?? 0) < before.versionCode && !options.allowDowngrade) {
      return { ok: false, code: 'INSTALL_FAILED_VERSION_DOWNGRADE', message: `Downgrade detected: Update version code ${info.versionCode ?? 0} is older than current ${before.versionCode}` };
    }
    let replaced = false;
    this.change(() => {
      if (existing) this.permissions.processEnded(info.appId);
      replaced = this.processes.install(installedApp(info));
    });
    return { ok: true, replaced };
  }

  /** Removes a user-installed app with its data, permissions and notifications; false for a system app or an unknown one. */
  uninstall(pkg: string): boolean {
    if (!this.app(pkg)?.thirdParty) return false;
    this.change(() => {
      this.processes.uninstall(pkg);
      this.permissions.forget(pkg);
      this.notifications.cancelFor(pkg);
    });
    return true;
  }

  // ---- notifications -------------------------------------------------------------------------------------------

  /** Posts (or replaces) a notification; it shows heads-up over the app until touched, and stays in the shade. */
  postNotification(n: PostedNotification): void {
    this.change(() => {
      this.notifications.post(n);
      this.headsUpKey = n.key;
    });
  }

  /** A tap on a notification: it goes away (auto-cancel) and its content intent opens its app. */
  private openNotification(key: string): void {
    const n = this.notifications.cancel(key);
    this.headsUpKey = null;
    this.shadeOpen = false;
    if (n?.opens && this.app(n.opens)?.launcherActivity) this.bringToFront(n.opens);
  }

  private posterName(n: PostedNotification): string {
    return n.poster === 'com.android.shell' ? 'Shell' : (this.app(n.poster)?.label ?? n.poster);
  }

  // ---- media -------------------------------------------------------------------------------------------------

  /** The media scanner reads a file: a photo or video joins the library (Photos shows it). False when it is not media. */
  scanMedia(path: string, data: Uint8Array | undefined): boolean {
    let added = false;
    this.change(() => (added = this.media.scan(path, data)));
    return added;
  }

  // ---- location ----------------------------------------------------------------------------------------------

  /** Location and app-op changes go through here so the screen follows. */
  changeLocation(apply: (location: LocationService) => boolean): boolean {
    let result = false;
    this.change(() => (result = apply(this.location)));
    return result;
  }

  private stopProcess(pkg: string): void {
    this.processes.stop(pkg, true);
    this.permissions.processEnded(pkg);
  }

  /** ACTION_VIEW: http(s) URLs open in Chrome. Returns false when no app handles the URL. */
  openUrl(url: string): boolean {
    if (!/^https?:\/\//i.test(url)) return false;
    this.change(() => this.openUrlNow(url));
    return true;
  }

  private openUrlNow(url: string): void {
    this.bringToFront(CHROME_PACKAGE);
    this.instance(CHROME_PACKAGE).openUrl?.(url);
  }

  /** A Settings intent (`android.settings.WIFI_SETTINGS`…): Settings opens on that page. */
  openSettingsPage(page: 'internet' | 'bluetooth' | 'display' | 'about' | 'root'): void {
    this.change(() => {
      this.bringToFront(SETTINGS_PACKAGE);
      (this.instance(SETTINGS_PACKAGE) as SettingsInstance).showPage(page);
    });
  }

  // ---- runtime permissions -----------------------------------------------------------------------------------

  /** The permission dialog's package and permission group when it shows (null otherwise). */
  permissionPrompt(): { pkg: string; group: PermissionGroup } | null {
    const p = this.pendingShown();
    return p ? { pkg: p.pkg, group: p.group } : null;
  }

  /** `pm grant` / `pm revoke` of a runtime permission group. */
  setGrant(pkg: string, group: PermissionGroup, granted: boolean): void {
    this.change(() => this.permissions.set(pkg, group, granted));
  }

  /** `pm set-permission-flags` / `clear-permission-flags`. */
  setPermissionFlags(pkg: string, group: PermissionGroup, flags: readonly PermissionFlag[], on: boolean): void {
    this.change(() => this.permissions.setFlags(pkg, group, flags, on));
  }

  /** `granted` (while in use), `one_time`, `denied`, `denied_forever`, or undefined when never asked. */
  grantOf(pkg: string, group: PermissionGroup = 'location'): Grant | undefined {
    return this.permissions.grantOf(pkg, group);
  }

  /** The grant and flags of a group, as `dumpsys package` prints them. */
  permissionFlags(pkg: string, group: PermissionGroup): { granted: boolean; flags: string[] } {
    return this.permissions.flagsOf(pkg, group);
  }

  // ---- device ------------------------------------------------------------------------------------------------

  /** Settings writes go through here so the screen follows (`settings put`, `svc`, `cmd uimode`…). */
  setSetting(apply: () => void): void {
    this.change(apply);
  }

}

function requireFinite(values: Record<string, number>): void {
  for (const [name, v] of Object.entries(values)) {
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new AndroidPhoneError('invalid_argument', `${name} must be a finite number`);
  }
}

