import type { AndroidAppDefinition, AndroidAppInstance, JavaException } from '../apps/app';
import { androidApps } from '../apps/catalog';
import type { AndroidSystem } from '../system/android-system';
import type { Logcat } from '../system/logcat';

const FIRST_APP_PID = 4211;
const FIRST_APP_UID = 10100;
export const SYSTEM_SERVER_PID = 612;

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

/** `com.android.settings.Settings` → `.Settings` within its own package, as activity names print. */
export function shortClass(pkg: string, cls: string): string {
  return cls.startsWith(`${pkg}.`) ? cls.slice(pkg.length) : cls;
}

/**
 * Installed apps, their processes (pids, uids), their instances (state that survives the background), the
 * recent tasks and which one is in front, logged as ActivityManager logs them.
 */
export class AppProcesses {
  private readonly apps = new Map<string, AndroidAppDefinition>();
  private readonly instances = new Map<string, AndroidAppInstance>();
  private readonly pids = new Map<string, number>();
  private readonly uids = new Map<string, number>();
  private nextPid = FIRST_APP_PID;
  private nextUid: number;
  /** Recent tasks, most recent first. */
  recents: string[] = [];
  /** The task in front; null = the launcher. */
  foreground: string | null = null;

  constructor(
    private readonly system: AndroidSystem,
    private readonly logcat: Logcat,
  ) {
    const shipped = androidApps(() => this.installed());
    shipped.forEach((app, i) => {
      this.apps.set(app.pkg, app);
      this.uids.set(app.pkg, FIRST_APP_UID + i);
    });
    this.nextUid = FIRST_APP_UID + shipped.length;
  }

  /**
   * Installs an app, or replaces one: as on Android, an update stops the app's process and keeps its uid and
   * permission answers; unlike Android, the virtual app's in-memory data starts afresh with the new build.
   * Returns whether an app with that package was there before.
   */
  install(app: AndroidAppDefinition): boolean {
    const replaced = this.apps.has(app.pkg);
    if (replaced) {
      this.stop(app.pkg, false);
      this.instances.delete(app.pkg);
    } else {
      this.uids.set(app.pkg, this.nextUid++);
    }
    this.apps.set(app.pkg, app);
    this.logcat.add(SYSTEM_SERVER_PID, 'I', 'PackageManager', `${replaced ? 'Update' : 'Install'} package ${app.pkg} versionName=${app.versionName}`);
    return replaced;
  }

  /** Removes an app with its process, task, data and uid. */
  uninstall(pkg: string): void {
    this.stop(pkg, true);
    this.instances.delete(pkg);
    this.apps.delete(pkg);
    this.uids.delete(pkg);
    this.logcat.add(SYSTEM_SERVER_PID, 'I', 'PackageManager', `Removing package ${pkg}`);
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

  running(): string[] {
    return [...this.pids.keys()];
  }

  instance(pkg: string): AndroidAppInstance {
    let instance = this.instances.get(pkg);
    if (!instance) {
      const app = this.apps.get(pkg);
      if (!app) throw new AndroidPhoneError('unknown_package', `Unknown package: ${pkg}`);
      instance = app.create(this.system);
      this.instances.set(pkg, instance);
    }
    return instance;
  }

  /** Starts the app's process if it has none and puts its task in front; the instance, or undefined for an unknown package. */
  bringToFront(pkg: string): AndroidAppInstance | undefined {
    const app = this.apps.get(pkg);
    if (!app) return undefined;
    const component = `${pkg}/${shortClass(pkg, app.launcherActivity)}`;
    this.logcat.add(SYSTEM_SERVER_PID, 'I', 'ActivityTaskManager', `START u0 {act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] flg=0x10200000 cmp=${component}} from uid 2000`);
    if (!this.pids.has(pkg)) {
      const pid = this.nextPid;
      this.nextPid += 23;
      this.pids.set(pkg, pid);
      this.logcat.add(SYSTEM_SERVER_PID, 'I', 'ActivityManager', `Start proc ${pid}:${pkg}/u0a${(this.uids.get(pkg) ?? 0) - 10000} for top-activity {${component}}`);
    }
    this.foreground = pkg;
    this.recents = [pkg, ...this.recents.filter((p) => p !== pkg)];
    return this.instance(pkg);
  }

  /** The process ends (its instance drops transient state); with `removeTask` its task leaves recents too. */
  stop(pkg: string, removeTask: boolean): void {
    this.pids.delete(pkg);
    this.instances.get(pkg)?.reset();
    if (removeTask) this.recents = this.recents.filter((p) => p !== pkg);
    if (this.foreground === pkg && removeTask) this.foreground = null;
  }

  /** `pm clear`: the process ends and the app's data goes (a fresh instance next time); its task leaves recents. */
  clearData(pkg: string): void {
    this.stop(pkg, true);
    this.instances.delete(pkg);
  }

  /**
   * An uncaught exception on the app's main thread, as Android 14 reports it: RuntimeInit's FATAL EXCEPTION
   * block in the crash buffer (tag AndroidRuntime, the app's pid), ActivityManager's lines in main; the process
   * dies, its task goes, the launcher comes back.
   */
  crash(pkg: string, exception: JavaException): void {
    const pid = this.pids.get(pkg);
    const app = this.apps.get(pkg);
    if (pid === undefined || !app) return;
    const block = ['FATAL EXCEPTION: main', `Process: ${pkg}, PID: ${pid}`, `${exception.className}: ${exception.message}`, ...exception.frames.map((f) => `\tat ${f}`)];
    for (const line of block) this.logcat.add(pid, 'E', 'AndroidRuntime', line, 'crash');
    this.logcat.add(pid, 'I', 'Process', `Sending signal. PID: ${pid} SIG: 9`);
    this.logcat.add(SYSTEM_SERVER_PID, 'W', 'ActivityTaskManager', `  Force finishing activity ${pkg}/${shortClass(pkg, app.launcherActivity)}`);
    this.logcat.add(SYSTEM_SERVER_PID, 'I', 'ActivityManager', `Process ${pkg} (pid ${pid}) has died: fg  TOP `);
    this.stop(pkg, true);
  }

  logForceStop(pkg: string): void {
    this.logcat.add(SYSTEM_SERVER_PID, 'I', 'ActivityManager', `Force stopping ${pkg} appid=${this.uids.get(pkg)} user=0: from pid ${SYSTEM_SERVER_PID + 1}`);
  }
}
