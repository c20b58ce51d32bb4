import { PRIVACY_PERMISSIONS, type Env, type GeoPosition, type LaunchInfo, type PhoneNotification, type PhoneServices, type PrivacyPermission, type SystemState } from './apps/app';
import { installedAppDefinition, type AppBundle } from './apps/installed-app';
import { PHOTOS_BUNDLE_ID } from './apps/photos';
import { bannerWindow } from './ui/banner';
import { DOCK, HOME_PAGES } from './apps/catalog';
import { lockScreenWindows } from './apps/lock-screen';
import { HomeScreen, SPRINGBOARD_BUNDLE_ID, SPRINGBOARD_NAME } from './apps/springboard';
import { AlertSlot } from './device/alerts';
import { AppLifecycle, SPRINGBOARD, SPRINGBOARD_PID } from './device/app-lifecycle';
import { CrashReports, OsLog, type ObjcException, type OsLogType } from './device/diagnostics';
import { Posture } from './device/posture';
import { ScreenCache } from './device/screen-cache';
import { TouchInput } from './device/touch-input';
import {
  PhoneError,
  type AlertInfo,
  type AppRunState,
  type AppSummary,
  type Phone,
  type PasteboardType,
  type PhoneElement,
  type PhoneProfile,
  type Rect,
  type RunningApp,
} from './model';
import { DEFAULT_PROFILE_ID, hasHomeIndicator, PROFILES } from './profiles';
import { drawHomeIndicator, drawStatusBar } from './ui/status-bar';
import { themeFor } from '../engine/render/theme';
import { alertWindow } from './ui/alert';
import { editMenuFor } from './ui/edit-menu';
import { toElements, type View } from '../engine/view';

export { SPRINGBOARD_PID };
export { LONG_PRESS_SEC } from './device/touch-input';

export interface CreatePhoneOptions {
  /** A key of PROFILES; default "iphone-15". */
  profile?: string;
  appearance?: 'light' | 'dark';
  /** What Settings → General → About shows as Name; default "Apex iPhone". */
  deviceName?: string;
  /**
   * Off unless set: after the screen changes and then stays unchanged for this many milliseconds, draw and
   * encode the screenshot in the background, so the next `renderPng()` is served from the cache (an agent
   * that thinks between actions then never waits for a render). Rapid sequences of changes render nothing.
   */
  prerenderAfterMs?: number;
  /**
   * `undetermined`: Photos asks for access to the library when it next comes to the foreground ("Allow Full
   * Access" / "Limit Access…" / "Don't Allow"). Default `full`: a phone already set up, Photos opens directly.
   */
  photoLibraryAccess?: 'undetermined' | 'full';
  /** An iOS update waiting to be installed ("iOS 17.6"): Settings then shows "Software Update Available" at the top. */
  softwareUpdate?: string;
}

export const DEFAULT_DEVICE_NAME = 'Apex iPhone';
const BATTERY = { level: 0.85, state: 1 as const };
/** A URL's scheme (RFC 3986). */
const URL_SCHEME = /^([a-z][a-z0-9+.-]*):/i;

/**
 * The in-memory iPhone: a state machine whose every mutation bumps `version`. The ideas live in `device/`: app
 * lifecycle, the pending alert, touch input, lock and orientation, and the view/PNG cache; this class puts them
 * together behind the `Phone` interface.
 */
export class VirtualPhone implements Phone {
  readonly profile: PhoneProfile;
  private versionCounter = 0;
  private readonly system: SystemState;
  private readonly apps: AppLifecycle;
  private readonly alerts = new AlertSlot();
  private readonly posture: Posture;
  private readonly cache: ScreenCache;
  private readonly touch: TouchInput;
  private currentAppearance: 'light' | 'dark';
  /** The general pasteboard: one item of one type, as UIPasteboard holds after a set. */
  private clipboard: { type: PasteboardType; data: Buffer } | null = null;
  private readonly home: HomeScreen;
  /** The notification banner on top of the screen, if any. */
  private banner: PhoneNotification | null = null;
  /** What each running app's process was started with. */
  private readonly launches = new Map<string, LaunchInfo>();
  private readonly services: PhoneServices = {
    showAlert: (owner, alert) => {
      this.logSystem(`Presenting alert "${alert.title}" for ${owner}`);
      this.alerts.show(owner, alert);
    },
    log: (owner, message) => this.logApp(owner, 'Default', message),
    crash: (owner, exception) => this.crash(owner, exception),
  };
  /** The unified log (launches, terminations, alerts, apps' own lines, crashes) and the crash reports. */
  readonly osLog = new OsLog();
  readonly crashReports: CrashReports;

  constructor(options: CreatePhoneOptions = {}) {
    const profileId = options.profile ?? DEFAULT_PROFILE_ID;
    const profile = Object.prototype.hasOwnProperty.call(PROFILES, profileId) ? PROFILES[profileId] : undefined;
    if (!profile) {
      throw new PhoneError('invalid_argument', `unknown phone profile "${profileId}"; known: ${Object.keys(PROFILES).join(', ')}`);
    }
    this.profile = profile;
    this.crashReports = new CrashReports(profile.osVersion);
    const appearance = options.appearance ?? 'light';
    if (appearance !== 'light' && appearance !== 'dark') {
      throw new PhoneError('invalid_argument', `appearance must be light or dark, not "${String(appearance)}"`);
    }
    this.currentAppearance = appearance;
    const deviceName = options.deviceName ?? DEFAULT_DEVICE_NAME;
    if (typeof deviceName !== 'string' || deviceName.trim() === '') {
      throw new PhoneError('invalid_argument', 'deviceName must be a non-empty string');
    }
    const photoLibraryAccess = options.photoLibraryAccess ?? 'full';
    if (photoLibraryAccess !== 'undetermined' && photoLibraryAccess !== 'full') {
      throw new PhoneError('invalid_argument', `photoLibraryAccess must be undetermined or full, not "${String(photoLibraryAccess)}"`);
    }
    const softwareUpdate = options.softwareUpdate ?? null;
    if (softwareUpdate !== null) requireUpdateName(softwareUpdate);
    this.system = {
      deviceName,
      wifi: true,
      bluetooth: true,
      airplaneMode: false,
      photoLibraryAccess,
      softwareUpdate,
      privacy: new Map(),
      location: null,
      biometricEnrolled: false,
    };
    this.apps = new AppLifecycle(this.system);
    const byName = (name: string) => {
      const app = this.apps.definitions().find((a) => a.name === name);
      if (!app) throw new Error(`home screen names an unknown app: ${name}`);
      return app;
    };
    this.home = new HomeScreen(
      HOME_PAGES.map((page) => page.map(byName)),
      DOCK.map(byName),
      {
        launch: (bundleId) => this.launchApp(bundleId),
        showAlert: (alert) => this.alerts.show(SPRINGBOARD_BUNDLE_ID, alert),
        uninstall: (bundleId) => {
          this.apps.uninstall(bundleId);
          this.home.removeIcon(bundleId);
        },
      },
    );
    const prerender = options.prerenderAfterMs;
    if (prerender !== undefined && !(Number.isFinite(prerender) && prerender >= 0)) {
      throw new PhoneError('invalid_argument', 'prerenderAfterMs must be a non-negative number of milliseconds');
    }
    this.posture = new Posture(profile);
    this.cache = new ScreenCache(profile.scale, prerender, () => this.renderPng());
    this.touch = new TouchInput({
      root: () => this.root(),
      screenRect: () => this.screenRect(),
      mutate: (change) => this.mutate(change),
      swipeUpFromBottom: () => {
        if (!hasHomeIndicator(this.profile) || this.onSystemScreen()) return false;
        this.goHome();
        return true;
      },
    });
  }

  /** Stops background work (the pending prerender, if any). The phone stays usable. */
  dispose(): void {
    this.cache.dispose();
  }

  get version(): number {
    return this.versionCounter;
  }

  screenSize(): { width: number; height: number } {
    return this.posture.screenSize(this.apps.foreground === null);
  }

  // ---- what is on screen -------------------------------------------------------------------------------

  snapshot(): PhoneElement {
    return toElements(this.root(), this.screenRect())[0];
  }

  renderPng(): Buffer {
    const env = this.env();
    const root = this.root();
    const onApp = !this.onSystemScreen();
    const barColor = onApp ? env.theme.statusBarOnScreen : '#ffffff';
    return this.cache.png(this.versionCounter, env.width, env.height, env.theme, root, (ctx) => {
      if (env.top > 0) {
        drawStatusBar(ctx, {
          width: env.width,
          height: env.top,
          color: barColor,
          batteryLevel: BATTERY.level,
          notched: hasHomeIndicator(this.profile),
          showTime: !this.posture.locked,
          system: this.system,
        });
      }
      if (env.bottom > 0) drawHomeIndicator(ctx, env.width, env.height, onApp ? env.theme.label : '#ffffff');
    });
  }

  renderPixels(): { rgba: Buffer; width: number; height: number } {
    this.renderPng();
    return this.cache.pixels();
  }

  /** True when the screenshot of the current state is already encoded (the next renderPng() is free). */
  hasCachedPng(): boolean {
    return this.cache.hasPng(this.versionCounter);
  }

  private screenRect(): Rect {
    return { x: 0, y: 0, ...this.screenSize() };
  }

  private env(): Env {
    const { width, height } = this.screenSize();
    const landscape = this.orientation() === 'LANDSCAPE';
    const notched = hasHomeIndicator(this.profile);
    return {
      profile: this.profile,
      width,
      height,
      top: landscape ? 0 : this.profile.statusBarHeight,
      bottom: notched ? (landscape ? 21 : 34) : 0,
      theme: themeFor(this.currentAppearance),
      system: this.system,
      screen: { x: 0, y: 0, width, height },
      pasteboard: {
        text: () => this.pasteboard('plaintext').toString('utf8'),
        // Edit-menu handlers already run inside a mutation.
        setText: (text) => (this.clipboard = { type: 'plaintext', data: Buffer.from(text, 'utf8') }),
      },
    };
  }

  /** The view tree of the current screen, rebuilt only when the state changed. */
  private root(): View {
    return this.cache.root(this.versionCounter, () => this.buildRoot());
  }

  private buildRoot(): View {
    const env = this.env();
    const choose = (button: string) => this.alerts.choose(button);
    let label: string;
    let windows: View[];
    const foreground = this.apps.foreground;
    if (this.posture.locked) {
      label = SPRINGBOARD_NAME;
      windows = lockScreenWindows(env, () => (this.posture.locked = false));
    } else if (foreground === null) {
      label = SPRINGBOARD_NAME;
      windows = this.home.windows(env);
    } else {
      label = this.apps.definition(foreground).name;
      const instance = this.apps.instance(foreground);
      windows = instance.windows(env);
      const input = instance.focusedInput();
      const anchor = input?.menuOpen ? findInputView(windows, input) : undefined;
      const menu = input && anchor ? editMenuFor(env, anchor, input) : null;
      if (menu) windows = [...windows, menu];
    }
    const alert = this.shownAlert();
    if (alert) windows = [...windows, alertWindow(env, alert, choose)];
    const banner = this.banner;
    if (banner && !this.posture.locked && !alert) windows = [...windows, bannerWindow(env, banner, this.apps.definition(banner.bundleId).name, () => this.openNotification(banner))];
    return { uid: `app/${label}`, type: 'Application', label, rect: env.screen, children: windows };
  }

  private mutate(change: () => void): void {
    change();
    this.versionCounter++;
    this.cache.changed();
  }

  // ---- touch and keys ----------------------------------------------------------------------------------

  tap(x: number, y: number): void {
    const banner = this.banner;
    this.touch.tap(x, y);
    // A touch anywhere but on the banner sends it away.
    if (banner && this.banner === banner) this.mutate(() => (this.banner = null));
  }

  private openNotification(notification: PhoneNotification): void {
    this.banner = null;
    this.launchInside(notification.bundleId, undefined);
    this.apps.instance(notification.bundleId).notificationOpened?.(notification);
  }

  drag(fromX: number, fromY: number, toX: number, toY: number, holdSec: number): void {
    this.touch.drag(fromX, fromY, toX, toY, holdSec);
  }

  longPress(x: number, y: number, durationSec: number): void {
    this.touch.longPress(x, y, durationSec);
  }

  doubleTap(x: number, y: number): void {
    this.touch.doubleTap(x, y);
  }

  pinch(x: number, y: number, scale: number): void {
    this.touch.pinch(x, y, scale);
  }

  openUrl(url: string): void {
    if (typeof url !== 'string') throw new PhoneError('invalid_argument', 'url must be a string');
    const scheme = URL_SCHEME.exec(url)?.[1]?.toLowerCase();
    if (!scheme) throw new PhoneError('invalid_argument', `'${url}' is not a valid URL`);
    const app = this.apps.definitions().find((a) => a.urlSchemes?.includes(scheme));
    if (!app) throw new PhoneError('no_app_for_url', `no installed app opens "${scheme}:" URLs`);
    this.launchApp(app.bundleId);
    const instance = this.apps.instance(app.bundleId);
    if (instance.openUrl) this.mutate(() => instance.openUrl?.(url));
  }

  pasteboard(type: PasteboardType): Buffer {
    const item = this.clipboard;
    if (!item) return Buffer.alloc(0);
    const isText = (t: PasteboardType) => t !== 'image';
    return item.type === type || (isText(item.type) && isText(type)) ? Buffer.from(item.data) : Buffer.alloc(0);
  }

  setPasteboard(type: PasteboardType, data: Buffer): void {
    if (type !== 'plaintext' && type !== 'image' && type !== 'url') throw new PhoneError('invalid_argument', `unsupported pasteboard type "${String(type)}"`);
    // Not a screen change: the version (and the caches keyed by it) stay.
    this.clipboard = { type, data: Buffer.from(data) };
  }

  keyboardShown(): boolean {
    return this.touch.keyboardShown();
  }

  dismissKeyboard(keyNames: readonly string[]): void {
    this.touch.dismissKeyboard(keyNames);
  }

  typeText(text: string): void {
    if (typeof text !== 'string') throw new PhoneError('invalid_argument', 'text must be a string');
    const foreground = this.apps.foreground;
    const input = foreground && !this.posture.locked ? this.apps.instance(foreground).focusedInput() : null;
    if (!input) throw new PhoneError('no_focused_element', 'no text input has keyboard focus; tap a text field first');
    this.mutate(() => input.type(text));
  }

  focusElement(uid: string): void {
    this.touch.focusElement(uid);
  }

  clearElement(uid: string): void {
    this.touch.clearElement(uid);
  }

  pressButton(name: string): void {
    switch (String(name).toLowerCase()) {
      case 'home':
        this.goHome();
        return;
      case 'volumeup':
      case 'volumedown':
        return;
      default:
        throw new PhoneError('unknown_button', `unknown button "${name}"; use home, volumeUp or volumeDown`);
    }
  }

  /** As on an iPhone: from an app, the home screen as it was left; on the home screen, its first page. */
  goHome(): void {
    this.mutate(() => {
      if (!this.posture.locked && this.apps.foreground === null) this.home.page = 0;
      this.posture.locked = false;
      this.apps.foreground = null;
    });
  }

  // ---- apps --------------------------------------------------------------------------------------------

  installedApps(): AppSummary[] {
    return this.apps.installed();
  }

  launchApp(bundleId: string, launch?: LaunchInfo): void {
    if (bundleId === SPRINGBOARD_BUNDLE_ID) {
      this.goHome();
      return;
    }
    this.apps.definition(bundleId);
    this.mutate(() => {
      // New arguments need a new process.
      if (launch && this.apps.isRunning(bundleId)) {
        this.apps.terminate(bundleId);
        this.alerts.dropFor(bundleId);
      }
      this.launchInside(bundleId, launch);
    });
  }

  /** Starts (with `launch`) or brings the app to the front; runs inside a mutation. */
  private launchInside(bundleId: string, launch: LaunchInfo | undefined): void {
    this.posture.locked = false;
    const { instance, started } = this.apps.bringToFront(bundleId);
    if (started) {
      this.logSystem(`[app<${bundleId}>:${this.apps.running(bundleId).pid}] Launch succeeded`);
      const info = { arguments: [...(launch?.arguments ?? [])], environment: { ...(launch?.environment ?? {}) } };
      this.launches.set(bundleId, info);
      instance.started?.(info);
    }
    this.home.closeMenu();
    instance.activated?.(this.services);
  }

  launchInfo(bundleId: string): LaunchInfo {
    const info = this.apps.isRunning(bundleId) ? this.launches.get(bundleId) : undefined;
    return { arguments: [...(info?.arguments ?? [])], environment: { ...(info?.environment ?? {}) } };
  }

  deactivateApp(): string | null {
    const foreground = this.posture.locked ? null : this.apps.foreground;
    this.goHome();
    return foreground;
  }

  // ---- what a simulator's host tools do ------------------------------------------------------------------

  installApp(bundle: AppBundle): { replaced: boolean } {
    if (bundle.bundleId === SPRINGBOARD_BUNDLE_ID || isSystemApp(bundle.bundleId)) {
      throw new PhoneError('system_app', `"${bundle.bundleId}" is a system app's id`);
    }
    const definition = installedAppDefinition(bundle);
    let replaced = false;
    this.mutate(() => {
      replaced = this.apps.install(definition);
      this.alerts.dropFor(bundle.bundleId);
      this.home.addIcon(definition, HOME_PAGE_SIZE);
    });
    return { replaced };
  }

  uninstallApp(bundleId: string): void {
    this.apps.definition(bundleId);
    if (isSystemApp(bundleId)) throw new PhoneError('system_app', `"${bundleId}" is a system app; it cannot be removed`);
    this.mutate(() => {
      this.apps.uninstall(bundleId);
      this.alerts.dropFor(bundleId);
      this.home.removeIcon(bundleId);
      this.system.privacy.delete(bundleId);
      if (this.banner?.bundleId === bundleId) this.banner = null;
    });
  }

  resetApp(bundleId: string): void {
    this.apps.definition(bundleId);
    this.mutate(() => {
      this.apps.terminate(bundleId);
      this.apps.forgetInstance(bundleId);
      this.alerts.dropFor(bundleId);
      this.system.privacy.delete(bundleId);
    });
  }

  setPermission(bundleId: string, permission: PrivacyPermission, state: 'granted' | 'denied' | 'unset'): void {
    this.apps.definition(bundleId);
    if (!(PRIVACY_PERMISSIONS as readonly string[]).includes(permission)) throw new PhoneError('invalid_argument', `unknown permission "${String(permission)}"`);
    this.mutate(() => {
      let answers = this.system.privacy.get(bundleId);
      if (!answers) this.system.privacy.set(bundleId, (answers = new Map()));
      if (state === 'unset') answers.delete(permission);
      else answers.set(permission, state);
    });
  }

  permission(bundleId: string, permission: PrivacyPermission): 'granted' | 'denied' | 'unset' {
    return this.system.privacy.get(bundleId)?.get(permission) ?? 'unset';
  }

  setLocation(location: GeoPosition | null): void {
    if (location !== null && !(Math.abs(location.latitude) <= 90 && Math.abs(location.longitude) <= 180)) {
      throw new PhoneError('invalid_argument', 'latitude must be within ±90 and longitude within ±180');
    }
    this.mutate(() => (this.system.location = location === null ? null : { ...location }));
  }

  location(): GeoPosition | null {
    return this.system.location ? { ...this.system.location } : null;
  }

  biometric(action: 'enroll' | 'unenroll' | 'match' | 'fail'): void {
    if (action === 'enroll' || action === 'unenroll') {
      this.mutate(() => (this.system.biometricEnrolled = action === 'enroll'));
      return;
    }
    const foreground = this.posture.locked ? null : this.apps.foreground;
    // Without an enrolled face a match is no match; with no prompt waiting, nothing notices.
    if (foreground === null) return;
    const instance = this.apps.instance(foreground);
    if (!instance.biometricAnswered) return;
    this.mutate(() => instance.biometricAnswered?.(action === 'match' && this.system.biometricEnrolled));
  }

  biometricEnrolled(): boolean {
    return this.system.biometricEnrolled;
  }

  pushNotification(notification: PhoneNotification): void {
    this.apps.definition(notification.bundleId);
    this.mutate(() => (this.banner = { ...notification }));
  }

  addMedia(kind: 'photo' | 'video'): void {
    this.mutate(() => this.apps.instance(PHOTOS_BUNDLE_ID).mediaAdded?.(kind));
  }

  terminateApp(bundleId: string): boolean {
    if (bundleId !== SPRINGBOARD_BUNDLE_ID) this.apps.definition(bundleId);
    if (!this.apps.isRunning(bundleId)) return false;
    this.logSystem(`[app<${bundleId}>:${this.apps.running(bundleId).pid}] Terminating: requested by the automation agent`);
    this.mutate(() => {
      this.apps.terminate(bundleId);
      this.alerts.dropFor(bundleId);
    });
    return true;
  }

  /** The app's last words in the log, its crash report, its process gone, the home screen back. */
  private crash(bundleId: string, exception: ObjcException): void {
    if (!this.apps.isRunning(bundleId)) return;
    const app = this.apps.running(bundleId);
    const process = app.name.replace(/\s+/g, '');
    this.logApp(bundleId, 'Fault', `*** Terminating app due to uncaught exception '${exception.name}', reason: '${exception.reason}'`);
    this.crashReports.add({ bundleId, process, pid: app.pid, appVersion: '1.0' }, exception);
    this.logSystem(`[app<${bundleId}>:${app.pid}] Process exited: <RBSProcessExitContext| specific, status:<RBSProcessExitStatus| domain:signal(2) code:SIGABRT(6)>>`);
    this.mutate(() => {
      this.apps.terminate(bundleId);
      this.alerts.dropFor(bundleId);
    });
  }

  private logSystem(message: string): void {
    this.osLog.add({ pid: SPRINGBOARD_PID, process: 'SpringBoard', subsystem: 'com.apple.runningboard', category: 'process', type: 'Default', message });
  }

  private logApp(bundleId: string, type: OsLogType, message: string): void {
    if (!this.apps.isRunning(bundleId)) return;
    const app = this.apps.running(bundleId);
    this.osLog.add({ pid: app.pid, process: app.name.replace(/\s+/g, ''), subsystem: bundleId, category: 'app', type, message });
  }

  appState(bundleId: string): AppRunState {
    if (bundleId === SPRINGBOARD_BUNDLE_ID) return this.onSystemScreen() ? 4 : 3;
    return this.apps.state(bundleId, this.posture.locked);
  }

  activeApp(): RunningApp {
    const foreground = this.apps.foreground;
    if (this.posture.locked || foreground === null) return { ...SPRINGBOARD };
    return this.apps.running(foreground);
  }

  runningApps(): RunningApp[] {
    return this.apps.runningApps().map((app) => ({ ...app }));
  }

  // ---- alerts ------------------------------------------------------------------------------------------

  alert(): AlertInfo | null {
    return this.alerts.info(this.shownAlert());
  }

  acceptAlert(buttonLabel?: string): void {
    const button = this.alerts.buttonFor(this.shownAlert(), buttonLabel, 'accept');
    this.mutate(() => this.alerts.choose(button));
  }

  dismissAlert(buttonLabel?: string): void {
    const button = this.alerts.buttonFor(this.shownAlert(), buttonLabel, 'dismiss');
    this.mutate(() => this.alerts.choose(button));
  }

  private shownAlert() {
    return this.alerts.shownFor(this.apps.foreground ?? SPRINGBOARD_BUNDLE_ID, this.posture.locked);
  }

  // ---- device ------------------------------------------------------------------------------------------

  isLocked(): boolean {
    return this.posture.locked;
  }

  lock(): void {
    this.mutate(() => (this.posture.locked = true));
  }

  unlock(): void {
    this.mutate(() => (this.posture.locked = false));
  }

  orientation(): 'PORTRAIT' | 'LANDSCAPE' {
    return this.posture.interfaceOrientation(this.apps.foreground === null);
  }

  /**
   * Turns the phone. An app follows; the lock screen stays portrait, and so does the home screen except on the
   * Plus/Max models (`homeScreenTurns`), so turning to landscape there is refused, and an app held in landscape
   * shows portrait again on the home screen — and landscape when it comes back.
   */
  setOrientation(orientation: 'PORTRAIT' | 'LANDSCAPE'): void {
    this.posture.checkTurn(orientation, this.apps.foreground === null);
    this.mutate(() => (this.posture.held = orientation));
  }

  /** The home screen or the lock screen is what shows. */
  private onSystemScreen(): boolean {
    return this.apps.foreground === null || this.posture.locked;
  }

  battery(): { level: number; state: 0 | 1 | 2 | 3 } {
    return { ...BATTERY };
  }

  deviceName(): string {
    return this.system.deviceName;
  }

  appearance(): 'light' | 'dark' {
    return this.currentAppearance;
  }

  setAppearance(appearance: 'light' | 'dark'): void {
    if (appearance !== 'light' && appearance !== 'dark') {
      throw new PhoneError('invalid_argument', `appearance must be light or dark, not "${String(appearance)}"`);
    }
    this.mutate(() => (this.currentAppearance = appearance));
  }

  /** An update arrives (its name, "iOS 17.6") or is installed (`null`): Settings' top row follows. */
  setSoftwareUpdate(update: string | null): void {
    if (update !== null) requireUpdateName(update);
    this.mutate(() => (this.system.softwareUpdate = update));
  }
}

/** Apple's own apps (and SpringBoard) come with the system: they cannot be removed, nor installed over. */
function isSystemApp(bundleId: string): boolean {
  return bundleId.startsWith('com.apple.');
}

/** Icons on one home-screen page (4 columns × 6 rows). */
const HOME_PAGE_SIZE = 24;

function requireUpdateName(update: unknown): void {
  if (typeof update !== 'string' || update.trim() === '' || update.length > 64) {
    throw new PhoneError('invalid_argument', 'softwareUpdate must name the update ("iOS 17.6"), at most 64 characters');
  }
}

function findInputView(views: readonly View[], input: object): View | undefined {
  for (const v of views) {
    if (v.textInput === input) return v;
    const inner = findInputView(v.children ?? [], input);
    if (inner) return inner;
  }
  return undefined;
}
