import type { AppDefinition, AppInstance, SystemState } from '../apps/app';
import { installedApps } from '../apps/catalog';
import { SPRINGBOARD_BUNDLE_ID, SPRINGBOARD_NAME } from '../apps/springboard';
import { PhoneError, type AppRunState, type AppSummary, type RunningApp } from '../model';

export const SPRINGBOARD_PID = 58;
const FIRST_APP_PID = 1001;

/**
 * Which apps are installed, which run (with their pids), which one is in front, and each app's instance (its
 * state, which survives backgrounding). It changes nothing on screen by itself: the phone wraps each call in a
 * mutation.
 */
export class AppLifecycle {
  private readonly apps = new Map<string, AppDefinition>();
  private readonly instances = new Map<string, AppInstance>();
  private readonly pids = new Map<string, number>();
  private nextPid = FIRST_APP_PID;
  /** The app in front; null = the home screen. */
  foreground: string | null = null;

  constructor(private readonly system: SystemState) {
    for (const app of installedApps()) this.apps.set(app.bundleId, app);
  }

  definitions(): AppDefinition[] {
    return [...this.apps.values()];
  }

  installed(): AppSummary[] {
    return this.definitions().map((a) => ({ bundleId: a.bundleId, name: a.name }));
  }

  isInstalled(bundleId: string): boolean {
    return this.apps.has(bundleId);
  }

  isRunning(bundleId: string): boolean {
    return this.pids.has(bundleId);
  }

  definition(bundleId: string): AppDefinition {
    const app = this.apps.get(bundleId);
    if (!app) throw new PhoneError('app_not_installed', `no app with bundle id "${bundleId}" is installed`);
    return app;
  }

  instance(bundleId: string): AppInstance {
    let instance = this.instances.get(bundleId);
    if (!instance) {
      instance = this.definition(bundleId).create(this.system);
      this.instances.set(bundleId, instance);
    }
    return instance;
  }

  /** Starts the app if it does not run (`started` true then), and brings it to the front. */
  bringToFront(bundleId: string): { instance: AppInstance; started: boolean } {
    const started = !this.pids.has(bundleId);
    if (started) this.pids.set(bundleId, this.nextPid++);
    this.foreground = bundleId;
    return { instance: this.instance(bundleId), started };
  }

  /** Adds (or replaces) an app; a replaced one is stopped first, and starts afresh. Returns whether it replaced one. */
  install(app: AppDefinition): boolean {
    const replaced = this.apps.has(app.bundleId);
    if (replaced) this.terminate(app.bundleId);
    this.instances.delete(app.bundleId);
    this.apps.set(app.bundleId, app);
    return replaced;
  }

  /** Its data goes: the next launch creates it anew. */
  forgetInstance(bundleId: string): void {
    this.instances.delete(bundleId);
  }

  /** Ends the app's process: it loses transient UI (navigation, focus, scroll) but keeps saved data. */
  terminate(bundleId: string): void {
    this.pids.delete(bundleId);
    this.instances.get(bundleId)?.reset();
    if (this.foreground === bundleId) this.foreground = null;
  }

  /** Delete App: the app, its data and its icon are gone; launching it fails as for any unknown id. */
  uninstall(bundleId: string): void {
    this.pids.delete(bundleId);
    this.instances.delete(bundleId);
    this.apps.delete(bundleId);
    if (this.foreground === bundleId) this.foreground = null;
  }

  /** XCUIApplicationState of an app other than SpringBoard, given whether the lock screen hides it. */
  state(bundleId: string, locked: boolean): AppRunState {
    if (!this.apps.has(bundleId)) return 0;
    if (!this.pids.has(bundleId)) return 1;
    return this.foreground === bundleId && !locked ? 4 : 3;
  }

  running(bundleId: string): RunningApp {
    return { bundleId, name: this.definition(bundleId).name, pid: this.pids.get(bundleId) ?? 0 };
  }

  /** SpringBoard first, then the running apps by pid. */
  runningApps(): RunningApp[] {
    const apps = [...this.pids.keys()].map((b) => this.running(b)).sort((a, b) => a.pid - b.pid);
    return [SPRINGBOARD, ...apps];
  }
}

export const SPRINGBOARD: RunningApp = Object.freeze({ bundleId: SPRINGBOARD_BUNDLE_ID, name: SPRINGBOARD_NAME, pid: SPRINGBOARD_PID });
