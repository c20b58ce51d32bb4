import type { Rect } from '../engine/element';
import { Renderer } from '../engine/render/renderer';
import { keyboardWindow } from '../engine/ui/keyboard';
import type { TextInput } from '../engine/ui/text-input';
import { dragTarget, gestureTarget, hitTest } from '../engine/view';
import type { AndroidView } from './android-view';
import type { AndroidAppDefinition, AndroidAppInstance, AndroidEnv, AppServices } from './apps/app';
import { androidApps } from './apps/catalog';
import { CHROME_PACKAGE } from './apps/chrome';
import { Launcher, LAUNCHER_ACTIVITY, LAUNCHER_PACKAGE, recentsWindow } from './apps/launcher';
import { SETTINGS_PACKAGE, type SettingsInstance } from './apps/settings';
import { materialTheme } from './material';
import { ANDROID_PROFILES, DEFAULT_ANDROID_PROFILE_ID, pxPerDp, type AndroidProfile } from './profiles';
import { AndroidSystem } from './system/android-system';
import { Logcat } from './system/logcat';
import { GRANT_PERMISSIONS_ACTIVITY, PERMISSION_CONTROLLER, permissionDialog, type PermissionAnswer } from './ui/permission-dialog';
import { notificationShade, quickSettingsTiles } from './ui/shade';
import { NAV_BAR_HEIGHT, navigationBar, screenOff, statusBar, SYSTEMUI, type NavButton } from './ui/system-bars';

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

/** Why an Android phone action failed. */
export class AndroidPhoneError extends Error {
  constructor(
    readonly kind: 'unknown_package' | 'invalid_argument',
    message: string,
  ) {
    super(message);
    this.name = 'AndroidPhoneError';
  }
}

/** How a runtime permission stands for an app. */
type Grant = 'granted' | 'one_time' | 'denied' | 'denied_forever';

interface PendingPermission {
  pkg: string;
  permission: string;
  onResult(granted: boolean): void;
}

/** What is in front, as `dumpsys window|activity` report it. */
export interface FocusInfo {
  /** The window with input focus: `com.android.chrome/org.chromium…ChromeTabbedActivity`, or `NotificationShade`. */
  window: string;
  /** The resumed activity as `pkg/class`. */
  pkg: string;
  activity: string;
}

const FIRST_APP_PID = 4211;
const FIRST_APP_UID = 10100;
const SYSTEM_SERVER_PID = 612;
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
  private readonly apps = new Map<string, AndroidAppDefinition>();
  private readonly instances = new Map<string, AndroidAppInstance>();
  private readonly pids = new Map<string, number>();
  private readonly uids = new Map<string, number>();
  private nextPid = FIRST_APP_PID;
  /** Recent tasks, most recent first. */
  private recents: string[] = [];
  private foreground: string | null = null;
  private readonly launcher = new Launcher();
  private shadeOpen = false;
  private recentsOpen = false;
  private awake = true;
  private pending: PendingPermission | null = null;
  private readonly grants = new Map<string, Grant>();
  private readonly renderer: Renderer;
  private cache: { version: number; root: AndroidView; active: AndroidView } | null = null;
  private readonly services: AppServices;

  constructor(options: AndroidPhoneOptions = {}) {
    const id = options.profile ?? DEFAULT_ANDROID_PROFILE_ID;
    const profile = Object.prototype.hasOwnProperty.call(ANDROID_PROFILES, id) ? ANDROID_PROFILES[id] : undefined;
    if (!profile) throw new AndroidPhoneError('invalid_argument', `unknown Android profile "${id}"; known: ${Object.keys(ANDROID_PROFILES).join(', ')}`);
    this.profile = profile;
    const deviceName = options.deviceName ?? profile.model;
    if (typeof deviceName !== 'string' || deviceName.trim() === '') throw new AndroidPhoneError('invalid_argument', 'deviceName must be a non-empty string');
    this.system = new AndroidSystem(deviceName, options.dark === true);
    this.logcat = new Logcat(options.now ?? Date.now);
    androidApps().forEach((app, i) => {
      this.apps.set(app.pkg, app);
      this.uids.set(app.pkg, FIRST_APP_UID + i);
    });
    this.renderer = new Renderer(pxPerDp(profile));
    this.services = {
      requestPermission: (pkg, permission, onResult) => this.requestPermission(pkg, permission, onResult),
      launch: (pkg) => this.bringToFront(pkg),
      openUrl: (url) => this.openUrlNow(url),
      log: (tag, message) => this.logcat.add(SYSTEM_SERVER_PID, 'I', tag, message),
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
    return [...this.apps.values()];
  }

  app(pkg: string): AndroidAppDefinition | undefined {
    return this.apps.get(pkg);
  }

  uidOf(pkg: string): number | undefined {
    return this.uids.get(pkg);
  }

  pidOf(pkg: string): number | undefined {
    return this.pids.get(pkg);
  }

  runningPackages(): string[] {
    return [...this.pids.keys()];
  }

  shadeShown(): boolean {
    return this.shadeOpen;
  }

  keyboardShown(): boolean {
    return this.awake && this.focusedInput() !== null && this.pendingShown() === null && !this.shadeOpen && !this.recentsOpen;
  }

  /** The app whose window is in front (the launcher's package on the home screen). */
  focus(): FocusInfo {
    if (this.pendingShown()) return { window: `${PERMISSION_CONTROLLER}/${GRANT_PERMISSIONS_ACTIVITY}`, pkg: PERMISSION_CONTROLLER, activity: GRANT_PERMISSIONS_ACTIVITY };
    const resumed = this.resumed();
    if (this.shadeOpen) return { window: 'NotificationShade', ...resumed };
    return { window: `${resumed.pkg}/${resumed.activity}`, ...resumed };
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

  private pendingShown(): PendingPermission | null {
    return this.pending && this.pending.pkg === this.foreground && !this.recentsOpen ? this.pending : null;
  }

  // ---- what is on screen -----------------------------------------------------------------------------------

  private env(): AndroidEnv {
    const { width, height } = this.screenSize();
    const landscape = this.rotation() % 2 === 1;
    return {
      width,
      height,
      top: landscape ? 28 : 40,
      bottom: NAV_BAR_HEIGHT,
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
    const windows: AndroidView[] = [];
    let active: AndroidView;
    if (this.recentsOpen) {
      const tasks = this.recents.map((p) => this.apps.get(p)).filter((a): a is AndroidAppDefinition => a !== undefined);
      active = recentsWindow(env, tasks, (pkg) => this.change(() => this.bringToFront(pkg)), () => this.change(() => this.clearRecents()));
    } else if (this.foreground === null) {
      active = this.launcher.window(env, this.installed(), (pkg) => this.bringToFront(pkg), () => (this.launcher.drawerOpen = true));
    } else {
      active = this.instance(this.foreground).window(env);
    }
    windows.push(active);
    const onHome = this.foreground === null || this.recentsOpen;
    windows.push(statusBar(env, onHome ? '#ffffff' : env.theme.statusBarOnScreen));
    windows.push(navigationBar(env, (b) => this.pressNav(b)));
    const input = this.focusedInput();
    if (input && this.keyboardShown()) {
      const kb = keyboardWindow({ ...env, height: env.height - env.bottom, bottom: 0 }, input, 'enter');
      windows.push({ ...kb, pkg: 'com.google.android.inputmethod.latin' });
    }
    if (this.shadeOpen) {
      const shade = notificationShade(env, quickSettingsTiles(env, (apply) => apply()), () => (this.shadeOpen = false));
      windows.push(shade);
      active = shade;
    }
    const pending = this.pendingShown();
    if (pending) {
      const dialog = permissionDialog(env, this.apps.get(pending.pkg)?.label ?? pending.pkg, (a) => this.answerPermission(a));
      windows.push(dialog);
      active = dialog;
    }
    if (!this.awake) windows.push(screenOff(env));
    const root: AndroidView = { uid: 'display/0', type: 'Application', rect: env.screen, children: windows };
    this.cache = { version: this.versionCounter, root, active };
    return this.cache;
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
    return this.renderer.png(`${this.versionCounter}`, env.width, env.height, env.theme, this.root(), () => undefined);
  }

  // ---- touch -------------------------------------------------------------------------------------------------

  tap(x: number, y: number): void {
    requireFinite({ x, y });
    if (!this.awake) return;
    const handler = hitTest(this.root(), x, y, this.screenRect())?.onTap;
    if (handler) this.change(() => handler(x, y));
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
    if (!this.shadeOpen && y1 <= env.top && dy > 100 && this.pendingShown() === null) {
      this.change(() => (this.shadeOpen = true));
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
    if (this.awake) this.change(() => this.back());
  }

  /** Home (as Back and Overview) does nothing while the screen is off: only Power and Wakeup wake it. */
  pressHome(): void {
    if (this.awake) this.change(() => this.home());
  }

  pressAppSwitch(): void {
    if (this.awake) this.change(() => this.toggleRecents());
  }

  /** Power: the screen goes off, or comes back on (no lock screen is set). */
  pressPower(): void {
    this.change(() => (this.awake = !this.awake));
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
    if (this.pendingShown()) {
      this.answerPermission('deny');
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
    if (!this.instance(this.foreground).back()) this.foreground = null;
  }

  private home(): void {
    this.shadeOpen = false;
    this.recentsOpen = false;
    this.focusedInput()?.blur();
    this.foreground = null;
    this.launcher.reset();
  }

  private toggleRecents(): void {
    this.shadeOpen = false;
    this.recentsOpen = !this.recentsOpen;
  }

  private clearRecents(): void {
    for (const pkg of [...this.recents]) this.stopProcess(pkg);
    this.recents = [];
    this.recentsOpen = false;
    this.foreground = null;
  }

  openShade(open: boolean): void {
    this.change(() => (this.shadeOpen = open));
  }

  // ---- apps --------------------------------------------------------------------------------------------------

  private instance(pkg: string): AndroidAppInstance {
    let instance = this.instances.get(pkg);
    if (!instance) {
      const app = this.apps.get(pkg);
      if (!app) throw new AndroidPhoneError('unknown_package', `Unknown package: ${pkg}`);
      instance = app.create(this.system);
      this.instances.set(pkg, instance);
    }
    return instance;
  }

  /** Starts (or brings back) an app's task, as `am start` / a launcher tap does. */
  launch(pkg: string): void {
    if (!this.apps.has(pkg)) throw new AndroidPhoneError('unknown_package', `Unknown package: ${pkg}`);
    this.change(() => this.bringToFront(pkg));
  }

  private bringToFront(pkg: string): void {
    const app = this.apps.get(pkg);
    if (!app) return;
    // An activity started while the screen is off starts behind it (the screen stays off).
    this.shadeOpen = false;
    this.recentsOpen = false;
    this.launcher.reset();
    this.logcat.add(SYSTEM_SERVER_PID, 'I', 'ActivityTaskManager', `START u0 {act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] flg=0x10200000 cmp=${pkg}/${shortClass(pkg, app.launcherActivity)}} from uid 2000`);
    if (!this.pids.has(pkg)) {
      const pid = this.nextPid;
      this.nextPid += 23;
      this.pids.set(pkg, pid);
      this.logcat.add(SYSTEM_SERVER_PID, 'I', 'ActivityManager', `Start proc ${pid}:${pkg}/u0a${(this.uids.get(pkg) ?? 0) - 10000} for top-activity {${pkg}/${shortClass(pkg, app.launcherActivity)}}`);
    }
    this.foreground = pkg;
    this.recents = [pkg, ...this.recents.filter((p) => p !== pkg)];
    this.instance(pkg).resumed?.(this.services);
  }

  /** `am force-stop`: the process dies, its task leaves recents, a one-time grant ends. False if not installed. */
  forceStop(pkg: string): boolean {
    if (!this.apps.has(pkg)) return false;
    this.change(() => {
      this.stopProcess(pkg);
      this.recents = this.recents.filter((p) => p !== pkg);
      if (this.foreground === pkg) this.foreground = null;
    });
    this.logcat.add(SYSTEM_SERVER_PID, 'I', 'ActivityManager', `Force stopping ${pkg} appid=${this.uids.get(pkg)} user=0: from pid ${SYSTEM_SERVER_PID + 1}`);
    return true;
  }

  private stopProcess(pkg: string): void {
    this.pids.delete(pkg);
    this.instances.get(pkg)?.reset();
    if (this.grants.get(pkg) === 'one_time') this.grants.delete(pkg);
    if (this.pending?.pkg === pkg) this.pending = null;
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

  private requestPermission(pkg: string, permission: string, onResult: (granted: boolean) => void): void {
    const grant = this.grants.get(pkg);
    if (grant === 'granted' || grant === 'one_time') onResult(true);
    else if (grant === 'denied_forever') onResult(false);
    else this.pending = { pkg, permission, onResult };
  }

  private answerPermission(answer: PermissionAnswer): void {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    const before = this.grants.get(p.pkg);
    const grant: Grant = answer === 'foreground' ? 'granted' : answer === 'one_time' ? 'one_time' : before === 'denied' ? 'denied_forever' : 'denied';
    this.grants.set(p.pkg, grant);
    this.logcat.add(SYSTEM_SERVER_PID, 'I', 'PermissionController', `${p.permission} for ${p.pkg}: ${grant}`);
    p.onResult(answer !== 'deny');
  }

  /** The permission dialog's package and buttons when it shows (null otherwise). */
  permissionPrompt(): { pkg: string; permission: string } | null {
    const p = this.pendingShown();
    return p ? { pkg: p.pkg, permission: p.permission } : null;
  }

  /** `pm grant` / `pm revoke` of the runtime permission an app asks for. */
  setGrant(pkg: string, granted: boolean): void {
    this.change(() => {
      if (this.pending?.pkg === pkg) this.answerPermission(granted ? 'foreground' : 'deny');
      this.grants.set(pkg, granted ? 'granted' : 'denied_forever');
    });
  }

  /** `granted` (while in use), `one_time`, `denied`, `denied_forever`, or undefined when never asked. */
  grantOf(pkg: string): Grant | undefined {
    return this.grants.get(pkg);
  }

  // ---- device ------------------------------------------------------------------------------------------------

  /** Settings writes go through here so the screen follows (`settings put`, `svc`, `cmd uimode`…). */
  setSetting(apply: () => void): void {
    this.change(apply);
  }

  isSystemUiPackage(pkg: string): boolean {
    return pkg === SYSTEMUI;
  }
}

/** `com.android.settings.Settings` → `.Settings` within its own package, as activity names print. */
export function shortClass(pkg: string, cls: string): string {
  return cls.startsWith(`${pkg}.`) ? cls.slice(pkg.length) : cls;
}

function requireFinite(values: Record<string, number>): void {
  for (const [name, v] of Object.entries(values)) {
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new AndroidPhoneError('invalid_argument', `${name} must be a finite number`);
  }
}

