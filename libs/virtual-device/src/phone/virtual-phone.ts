import type { AppDefinition, AppInstance, Env, PhoneServices, SystemAlert, SystemState } from './apps/app';
import { DOCK, HOME_PAGES, installedApps } from './apps/catalog';
import { lockScreenWindows } from './apps/lock-screen';
import { HomeScreen, SPRINGBOARD_BUNDLE_ID, SPRINGBOARD_NAME } from './apps/springboard';
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
import { Renderer } from './render/renderer';
import { drawHomeIndicator, drawStatusBar } from './render/status-bar';
import { themeFor } from './render/theme';
import { alertWindow } from './ui/alert';
import { editMenuFor } from './ui/edit-menu';
import { dragTarget, findView, gestureTarget, hitTest, isShown, toElements, type View } from './view';

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
export const SPRINGBOARD_PID = 58;
const FIRST_APP_PID = 1001;
const BATTERY = { level: 0.85, state: 1 as const };
/** Drags shorter than this are taps. */
const TAP_SLOP = 10;
/** A press at least this long (seconds) is a long press (UILongPressGestureRecognizer's default minimum). */
export const LONG_PRESS_SEC = 0.5;
/** A URL's scheme (RFC 3986). */
const URL_SCHEME = /^([a-z][a-z0-9+.-]*):/i;

interface PendingAlert {
  owner: string;
  alert: SystemAlert;
}

/** The in-memory phone: a state machine whose every mutation bumps `version`. */
export class VirtualPhone implements Phone {
  readonly profile: PhoneProfile;
  private versionCounter = 0;
  private readonly system: SystemState;
  private readonly apps = new Map<string, AppDefinition>();
  private readonly instances = new Map<string, AppInstance>();
  private readonly pids = new Map<string, number>();
  private nextPid = FIRST_APP_PID;
  private foreground: string | null = null;
  private locked = false;
  /** How the phone is held (set_orientation): apps follow it; see `interfaceOrientation()`. */
  private heldOrientation: 'PORTRAIT' | 'LANDSCAPE' = 'PORTRAIT';
  private currentAppearance: 'light' | 'dark';
  private pendingAlert: PendingAlert | null = null;
  /** The general pasteboard: one item of one type, as UIPasteboard holds after a set. */
  private clipboard: { type: PasteboardType; data: Buffer } | null = null;
  private readonly home: HomeScreen;
  private readonly renderer: Renderer;
  private viewCache: { version: number; root: View } | null = null;
  private readonly prerenderAfterMs: number | undefined;
  private prerenderTimer: NodeJS.Timeout | null = null;
  private readonly services: PhoneServices = {
    showAlert: (owner, alert) => {
      this.pendingAlert = { owner, alert };
    },
  };

  constructor(options: CreatePhoneOptions = {}) {
    const profileId = options.profile ?? DEFAULT_PROFILE_ID;
    const profile = Object.prototype.hasOwnProperty.call(PROFILES, profileId) ? PROFILES[profileId] : undefined;
    if (!profile) {
      throw new PhoneError('invalid_argument', `unknown phone profile "${profileId}"; known: ${Object.keys(PROFILES).join(', ')}`);
    }
    this.profile = profile;
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
    this.system = { deviceName, wifi: true, bluetooth: true, airplaneMode: false, photoLibraryAccess, softwareUpdate };
    for (const app of installedApps()) this.apps.set(app.bundleId, app);
    const byName = (name: string): AppDefinition => {
      const app = [...this.apps.values()].find((a) => a.name === name);
      if (!app) throw new Error(`home screen names an unknown app: ${name}`);
      return app;
    };
    this.home = new HomeScreen(
      HOME_PAGES.map((page) => page.map(byName)),
      DOCK.map(byName),
      {
        launch: (bundleId) => this.launchApp(bundleId),
        showAlert: (alert) => (this.pendingAlert = { owner: SPRINGBOARD_BUNDLE_ID, alert }),
        uninstall: (bundleId) => this.uninstall(bundleId),
      },
    );
    this.renderer = new Renderer(profile.scale);
    const prerender = options.prerenderAfterMs;
    if (prerender !== undefined && !(Number.isFinite(prerender) && prerender >= 0)) {
      throw new PhoneError('invalid_argument', 'prerenderAfterMs must be a non-negative number of milliseconds');
    }
    this.prerenderAfterMs = prerender;
  }

  /** Stops background work (the pending prerender, if any). The phone stays usable. */
  dispose(): void {
    if (this.prerenderTimer) clearTimeout(this.prerenderTimer);
    this.prerenderTimer = null;
  }

  get version(): number {
    return this.versionCounter;
  }

  screenSize(): { width: number; height: number } {
    const { width, height } = this.profile;
    return this.interfaceOrientation() === 'PORTRAIT' ? { width, height } : { width: height, height: width };
  }

  // ---- what is on screen -------------------------------------------------------------------------------

  snapshot(): PhoneElement {
    return toElements(this.root(), this.screenRect())[0];
  }

  renderPng(): Buffer {
    const env = this.env();
    const root = this.root();
    const onApp = this.foreground !== null && !this.locked;
    const barColor = onApp ? env.theme.statusBarOnScreen : '#ffffff';
    return this.renderer.png(`${this.versionCounter}`, env.width, env.height, env.theme, root, (ctx) => {
      if (env.top > 0) {
        drawStatusBar(ctx, {
          width: env.width,
          height: env.top,
          color: barColor,
          batteryLevel: BATTERY.level,
          notched: hasHomeIndicator(this.profile),
          showTime: !this.locked,
          system: this.system,
        });
      }
      if (env.bottom > 0) drawHomeIndicator(ctx, env.width, env.height, onApp ? env.theme.label : '#ffffff');
    });
  }

  renderPixels(): { rgba: Buffer; width: number; height: number } {
    this.renderPng();
    const pixels = this.renderer.lastPixels();
    if (!pixels) throw new Error('nothing was drawn');
    return pixels;
  }

  /** True when the screenshot of the current state is already encoded (the next renderPng() is free). */
  hasCachedPng(): boolean {
    return this.renderer.cachedKey() === `${this.versionCounter}`;
  }

  private screenRect(): Rect {
    return { x: 0, y: 0, ...this.screenSize() };
  }

  private env(): Env {
    const { width, height } = this.screenSize();
    const landscape = this.interfaceOrientation() === 'LANDSCAPE';
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
    if (this.viewCache?.version === this.versionCounter) return this.viewCache.root;
    const env = this.env();
    let label: string;
    let windows: View[];
    if (this.locked) {
      label = SPRINGBOARD_NAME;
      windows = lockScreenWindows(env, () => (this.locked = false));
    } else if (this.foreground === null) {
      label = SPRINGBOARD_NAME;
      windows = this.home.windows(env);
      if (this.pendingAlert?.owner === SPRINGBOARD_BUNDLE_ID) windows = [...windows, alertWindow(env, this.pendingAlert.alert, (b) => this.chooseAlertButton(b))];
    } else {
      const bundleId = this.foreground;
      label = this.appDef(bundleId).name;
      const instance = this.instance(bundleId);
      windows = instance.windows(env);
      const input = instance.focusedInput();
      const anchor = input?.menuOpen ? findInputView(windows, input) : undefined;
      const menu = input && anchor ? editMenuFor(env, anchor, input) : null;
      if (menu) windows = [...windows, menu];
      if (this.pendingAlert?.owner === bundleId) windows = [...windows, alertWindow(env, this.pendingAlert.alert, (b) => this.chooseAlertButton(b))];
    }
    const root: View = { uid: `app/${label}`, type: 'Application', label, rect: env.screen, children: windows };
    this.viewCache = { version: this.versionCounter, root };
    return root;
  }

  private mutate(change: () => void): void {
    change();
    this.versionCounter++;
    if (this.prerenderAfterMs !== undefined) this.schedulePrerender(this.prerenderAfterMs);
  }

  private schedulePrerender(delayMs: number): void {
    if (this.prerenderTimer) clearTimeout(this.prerenderTimer);
    this.prerenderTimer = setTimeout(() => {
      this.prerenderTimer = null;
      this.renderPng();
    }, delayMs);
    // Never keeps the process alive.
    this.prerenderTimer.unref();
  }

  // ---- touch and keys ----------------------------------------------------------------------------------

  tap(x: number, y: number): void {
    requireFinite({ x, y });
    const target = hitTest(this.root(), x, y, this.screenRect());
    const handler = target?.onTap;
    if (handler) this.mutate(() => handler(x, y));
  }

  drag(fromX: number, fromY: number, toX: number, toY: number, holdSec: number): void {
    requireFinite({ fromX, fromY, toX, toY, holdSec });
    if (holdSec < 0) throw new PhoneError('invalid_argument', 'holdSec must not be negative');
    const dx = toX - fromX;
    const dy = toY - fromY;
    if (Math.hypot(dx, dy) < TAP_SLOP) {
      this.longPress(fromX, fromY, holdSec);
      return;
    }
    if (holdSec >= LONG_PRESS_SEC) {
      const pickUp = gestureTarget(this.root(), fromX, fromY, this.screenRect(), 'onHoldDrag')?.onHoldDrag;
      if (pickUp) {
        this.mutate(() => pickUp(fromX, fromY, toX, toY));
        return;
      }
    }
    const { height } = this.screenSize();
    const fromBottomEdge = fromY >= height - 20 && dy < -100;
    if (fromBottomEdge && hasHomeIndicator(this.profile) && this.foreground !== null && !this.locked) {
      this.goHome();
      return;
    }
    const target = dragTarget(this.root(), fromX, fromY, this.screenRect());
    const handler = target?.onDrag;
    if (handler) this.mutate(() => handler(dx, dy));
  }

  longPress(x: number, y: number, durationSec: number): void {
    requireFinite({ x, y, durationSec });
    if (durationSec < 0) throw new PhoneError('invalid_argument', 'durationSec must not be negative');
    if (durationSec < LONG_PRESS_SEC) {
      this.tap(x, y);
      return;
    }
    const hit = hitTest(this.root(), x, y, this.screenRect());
    const input = hit?.textInput;
    if (hit && input) {
      // A long press on a text input focuses it and opens its edit menu.
      const focus = hit.onFocus ?? hit.onTap;
      this.mutate(() => {
        focus?.(x, y);
        input.menuOpen = true;
      });
      return;
    }
    const handler = gestureTarget(this.root(), x, y, this.screenRect(), 'onLongPress')?.onLongPress;
    if (handler) this.mutate(() => handler(x, y));
    else this.tap(x, y);
  }

  doubleTap(x: number, y: number): void {
    requireFinite({ x, y });
    const handler = gestureTarget(this.root(), x, y, this.screenRect(), 'onDoubleTap')?.onDoubleTap;
    if (handler) {
      this.mutate(() => handler(x, y));
      return;
    }
    this.tap(x, y);
    this.tap(x, y);
  }

  pinch(x: number, y: number, scale: number): void {
    requireFinite({ x, y, scale });
    if (scale <= 0) throw new PhoneError('invalid_argument', 'scale must be greater than 0');
    const handler = gestureTarget(this.root(), x, y, this.screenRect(), 'onPinch')?.onPinch;
    if (handler) this.mutate(() => handler(scale, x, y));
  }

  openUrl(url: string): void {
    if (typeof url !== 'string') throw new PhoneError('invalid_argument', 'url must be a string');
    const scheme = URL_SCHEME.exec(url)?.[1]?.toLowerCase();
    if (!scheme) throw new PhoneError('invalid_argument', `'${url}' is not a valid URL`);
    const app = [...this.apps.values()].find((a) => a.urlSchemes?.includes(scheme));
    if (!app) throw new PhoneError('no_app_for_url', `no installed app opens "${scheme}:" URLs`);
    this.launchApp(app.bundleId);
    const instance = this.instance(app.bundleId);
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
    return this.shownOfType('Keyboard').length > 0;
  }

  dismissKeyboard(keyNames: readonly string[]): void {
    for (const name of keyNames) {
      if (!this.keyboardShown()) return;
      const wanted = String(name).toLowerCase();
      const key = [...this.shownOfType('Key'), ...this.shownOfType('Button')].find((v) => v.label?.toLowerCase() === wanted && v.onTap);
      if (key?.onTap) {
        const handler = key.onTap;
        this.mutate(() => handler(key.rect.x + key.rect.width / 2, key.rect.y + key.rect.height / 2));
      }
    }
    if (this.keyboardShown()) {
      throw new PhoneError('keyboard_stays', `the keyboard has no key that hides it among: ${keyNames.join(', ') || '(none given)'}`);
    }
  }

  /** Views of this type at least partly on screen, in tree order. */
  private shownOfType(type: View['type']): View[] {
    const root = this.root();
    const found: View[] = [];
    const walk = (v: View): void => {
      if (v.type === type && isShown(root, v.uid, this.screenRect())) found.push(v);
      for (const c of v.children ?? []) walk(c);
    };
    walk(root);
    return found;
  }

  typeText(text: string): void {
    if (typeof text !== 'string') throw new PhoneError('invalid_argument', 'text must be a string');
    const input = this.foreground && !this.locked ? this.instance(this.foreground).focusedInput() : null;
    if (!input) throw new PhoneError('no_focused_element', 'no text input has keyboard focus; tap a text field first');
    this.mutate(() => input.type(text));
  }

  focusElement(uid: string): void {
    const view = this.shownView(uid);
    const handler = view.onFocus ?? view.onTap;
    if (!handler) return;
    const cx = view.rect.x + view.rect.width / 2;
    const cy = view.rect.y + view.rect.height / 2;
    this.mutate(() => handler(cx, cy));
  }

  clearElement(uid: string): void {
    const view = this.shownView(uid);
    const handler = view.onClear;
    if (!handler) throw new PhoneError('invalid_argument', `element ${uid} is not a text input`);
    this.mutate(handler);
  }

  private shownView(uid: string): View {
    const root = this.root();
    const view = findView(root, uid);
    if (!view || !isShown(root, uid, this.screenRect())) throw new PhoneError('element_gone', `element ${uid} is not on screen`);
    return view;
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
      if (!this.locked && this.foreground === null) this.home.page = 0;
      this.locked = false;
      this.foreground = null;
    });
  }

  // ---- apps --------------------------------------------------------------------------------------------

  installedApps(): AppSummary[] {
    return [...this.apps.values()].map((a) => ({ bundleId: a.bundleId, name: a.name }));
  }

  launchApp(bundleId: string): void {
    if (bundleId === SPRINGBOARD_BUNDLE_ID) {
      this.goHome();
      return;
    }
    this.appDef(bundleId);
    this.mutate(() => {
      this.locked = false;
      if (!this.pids.has(bundleId)) this.pids.set(bundleId, this.nextPid++);
      this.foreground = bundleId;
      this.home.closeMenu();
      this.instance(bundleId).activated?.(this.services);
    });
  }

  /** Delete App: the app, its data and its icon are gone; launching it fails as for any unknown id. */
  private uninstall(bundleId: string): void {
    this.pids.delete(bundleId);
    this.instances.delete(bundleId);
    this.apps.delete(bundleId);
    this.home.removeIcon(bundleId);
    if (this.foreground === bundleId) this.foreground = null;
  }

  terminateApp(bundleId: string): boolean {
    if (bundleId !== SPRINGBOARD_BUNDLE_ID) this.appDef(bundleId);
    if (!this.pids.has(bundleId)) return false;
    this.mutate(() => {
      this.pids.delete(bundleId);
      this.instances.get(bundleId)?.reset();
      if (this.foreground === bundleId) this.foreground = null;
      if (this.pendingAlert?.owner === bundleId) this.pendingAlert = null;
    });
    return true;
  }

  appState(bundleId: string): AppRunState {
    if (bundleId === SPRINGBOARD_BUNDLE_ID) return this.onSystemScreen() ? 4 : 3;
    if (!this.apps.has(bundleId)) return 0;
    if (!this.pids.has(bundleId)) return 1;
    return this.foreground === bundleId && !this.locked ? 4 : 3;
  }

  activeApp(): RunningApp {
    if (this.locked || this.foreground === null) return { bundleId: SPRINGBOARD_BUNDLE_ID, name: SPRINGBOARD_NAME, pid: SPRINGBOARD_PID };
    return this.running(this.foreground);
  }

  runningApps(): RunningApp[] {
    const apps = [...this.pids.keys()].map((b) => this.running(b)).sort((a, b) => a.pid - b.pid);
    return [{ bundleId: SPRINGBOARD_BUNDLE_ID, name: SPRINGBOARD_NAME, pid: SPRINGBOARD_PID }, ...apps];
  }

  private running(bundleId: string): RunningApp {
    return { bundleId, name: this.appDef(bundleId).name, pid: this.pids.get(bundleId) ?? 0 };
  }

  private appDef(bundleId: string): AppDefinition {
    const app = this.apps.get(bundleId);
    if (!app) throw new PhoneError('app_not_installed', `no app with bundle id "${bundleId}" is installed`);
    return app;
  }

  private instance(bundleId: string): AppInstance {
    let instance = this.instances.get(bundleId);
    if (!instance) {
      instance = this.appDef(bundleId).create(this.system);
      this.instances.set(bundleId, instance);
    }
    return instance;
  }

  // ---- alerts ------------------------------------------------------------------------------------------

  alert(): AlertInfo | null {
    const shown = this.shownAlert();
    return shown ? { text: `${shown.title}\n${shown.message}`, buttons: [...shown.buttons] } : null;
  }

  acceptAlert(buttonLabel?: string): void {
    this.pressAlert(buttonLabel, 'accept');
  }

  dismissAlert(buttonLabel?: string): void {
    this.pressAlert(buttonLabel, 'dismiss');
  }

  private shownAlert(): SystemAlert | null {
    const p = this.pendingAlert;
    return p && !this.locked && p.owner === (this.foreground ?? SPRINGBOARD_BUNDLE_ID) ? p.alert : null;
  }

  private pressAlert(buttonLabel: string | undefined, kind: 'accept' | 'dismiss'): void {
    const alert = this.shownAlert();
    if (!alert) throw new PhoneError('no_alert', 'no alert is open');
    const button = buttonLabel ?? (kind === 'accept' ? alert.acceptButton : alert.dismissButton);
    if (!alert.buttons.includes(button)) {
      throw new PhoneError('invalid_argument', `the alert has no button "${button}"; its buttons: ${alert.buttons.join(', ')}`);
    }
    this.mutate(() => this.chooseAlertButton(button));
  }

  private chooseAlertButton(button: string): void {
    const p = this.pendingAlert;
    if (!p) return;
    this.pendingAlert = null;
    p.alert.onChoice(button);
  }

  // ---- device ------------------------------------------------------------------------------------------

  isLocked(): boolean {
    return this.locked;
  }

  lock(): void {
    this.mutate(() => (this.locked = true));
  }

  unlock(): void {
    this.mutate(() => (this.locked = false));
  }

  orientation(): 'PORTRAIT' | 'LANDSCAPE' {
    return this.interfaceOrientation();
  }

  /**
   * Turns the phone. An app follows; the lock screen stays portrait, and so does the home screen except on the
   * Plus/Max models (`homeScreenTurns`), so turning to landscape there is refused, and an app held in landscape
   * shows portrait again on the home screen — and landscape when it comes back.
   */
  setOrientation(orientation: 'PORTRAIT' | 'LANDSCAPE'): void {
    if (orientation !== 'PORTRAIT' && orientation !== 'LANDSCAPE') {
      throw new PhoneError('invalid_argument', `orientation must be PORTRAIT or LANDSCAPE, not "${String(orientation)}"`);
    }
    if (orientation === 'LANDSCAPE' && this.staysPortrait()) {
      throw new PhoneError('rotation_refused', `the ${this.locked ? 'lock' : 'home'} screen stays portrait`);
    }
    this.mutate(() => (this.heldOrientation = orientation));
  }

  private interfaceOrientation(): 'PORTRAIT' | 'LANDSCAPE' {
    return this.staysPortrait() ? 'PORTRAIT' : this.heldOrientation;
  }

  private staysPortrait(): boolean {
    return this.locked || (this.foreground === null && !this.profile.homeScreenTurns);
  }

  /** The home screen or the lock screen is what shows. */
  private onSystemScreen(): boolean {
    return this.foreground === null || this.locked;
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

function requireFinite(values: Record<string, number>): void {
  for (const [name, v] of Object.entries(values)) {
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new PhoneError('invalid_argument', `${name} must be a finite number`);
  }
}
