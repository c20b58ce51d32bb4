import { ApexError } from '@apex/errors';
import { runTool, simulatorDiagnostics, ToolMissing } from '@apex/ios-host';
import type { AppBuild, BiometricAction, MediaFile, Permission, PermissionState, PushNotification } from '@apex/port';
import type { SimulatorControl } from './simulator-control';

/**
 * The simulator control of a booted iOS simulator on this Mac, through `xcrun simctl` — the few calls Appium's
 * `node-simctl` makes for the same things (its `subcommands/*.js`): `get_app_container`, `install`,
 * `uninstall`, `terminate`, `privacy grant|revoke|reset`, `push`, `addmedia`, and biometrics as Darwin
 * notifications posted with `spawn <udid> notifyutil` (`@appium/coresim` `commands/biometric.ts`; Simulator.app's
 * Features ▸ Face ID menu posts the same). Its log and crash reports come from ios-host's `simulatorDiagnostics`
 * (`spawn <udid> log show --style ndjson`, the Mac's DiagnosticReports). One process per call, run by ios-host's `runTool` (bounded output; the
 * call's signal kills its whole process group).
 */

export interface SimctlOptions {
  deviceId: string;
  udid: string;
  /** The `xcrun` to run (default: `xcrun` on PATH). */
  xcrun?: string;
  env?: NodeJS.ProcessEnv;
  /** Where the Mac keeps crash reports (default ~/Library/Logs/DiagnosticReports). */
  crashDir?: string;
}

/** simctl's names for the privacy services (`xcrun simctl privacy` help); camera and notifications have none. */
const PRIVACY_SERVICES: Partial<Record<Permission, string>> = {
  location: 'location',
  locationAlways: 'location-always',
  microphone: 'microphone',
  photos: 'photos',
  contacts: 'contacts',
  calendar: 'calendar',
  reminders: 'reminders',
  motion: 'motion',
};

const ENROLLMENT = 'com.apple.BiometricKit.enrollmentChanged';
/** Face ID ("pearl") and Touch ID ("fingerTouch"): a simulator listens for the one its model has. */
const MATCH_DOMAINS = ['pearl', 'fingerTouch'];

class SimctlFailure extends Error {
  constructor(
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`simctl exited with ${exitCode}`);
  }
}

export class SimctlControl implements SimulatorControl {
  /** The builds this control installed, to reinstall on reset (simctl has no "clear data"). */
  private readonly builds = new Map<string, AppBuild>();

  readonly logLines: SimulatorControl['logLines'];
  readonly crashFiles: SimulatorControl['crashFiles'];

  constructor(private readonly options: SimctlOptions) {
    const diagnostics = simulatorDiagnostics(options.udid, { env: options.env, crashDir: options.crashDir });
    this.logLines = (sinceMs, signal) => diagnostics.logLines(sinceMs, signal);
    this.crashFiles = (signal) => diagnostics.crashFiles(signal);
  }

  private async run(args: readonly string[], signal: AbortSignal, input?: string): Promise<string> {
    let result;
    try {
      result = await runTool(this.options.xcrun ?? 'xcrun', ['simctl', ...args], { signal, env: this.options.env ?? process.env, ...(input === undefined ? {} : { input }) });
    } catch (error) {
      if (signal.aborted) throw new ApexError('device_timeout', `The simulator of device ${this.options.deviceId} did not finish in time.`, { cause: error });
      if (error instanceof ToolMissing) {
        throw new ApexError('unsupported_operation', `Device ${this.options.deviceId} is configured as a simulator, but this machine has no Xcode command-line tools.`, {
          hint: 'Run Apex on the Mac that runs the simulator (xcode-select --install), or remove "simulator" from the device entry.',
          cause: error,
        });
      }
      throw error;
    }
    if (result.code !== 0) throw new SimctlFailure(result.code, result.stderr);
    return result.stdout;
  }

  private failed(action: string, error: unknown): ApexError {
    if (error instanceof ApexError) return error;
    return new ApexError('device_error', `The simulator of device ${this.options.deviceId} could not ${action}.`, {
      hint: 'Check that the simulator is booted (xcrun simctl list devices booted) and retry.',
      cause: error,
    });
  }

  /** `get_app_container` prints the bundle's path when installed and fails when not (node-simctl getAppContainer). */
  private async isInstalled(appId: string, signal: AbortSignal): Promise<boolean> {
    try {
      await this.run(['get_app_container', this.options.udid, appId], signal);
      return true;
    } catch (error) {
      if (error instanceof SimctlFailure) return false;
      throw error;
    }
  }

  private notInstalled(appId: string): ApexError {
    return new ApexError('app_not_found', `Device ${this.options.deviceId} has no app "${appId}".`, { hint: 'Install it with install_app first.' });
  }

  async install(build: AppBuild, signal: AbortSignal): Promise<{ replaced: boolean }> {
    if (build.kind !== 'app') {
      throw new ApexError('unsupported_operation', `Device ${this.options.deviceId} is a simulator: it installs .app builds only.`, {
        hint: 'Give the .app folder of a simulator build (an .ipa is built for phones; unzip a .zip of an .app first).',
      });
    }
    try {
      const replaced = await this.isInstalled(build.appId, signal);
      await this.run(['install', this.options.udid, build.path], signal);
      this.builds.set(build.appId, build);
      return { replaced };
    } catch (error) {
      throw this.failed(`install ${build.name}`, error);
    }
  }

  async uninstall(appId: string, signal: AbortSignal): Promise<void> {
    if (appId.startsWith('com.apple.')) {
      throw new ApexError('unsupported_operation', `"${appId}" is a system app of device ${this.options.deviceId}; it cannot be removed.`, { hint: 'Only apps you installed can be removed.' });
    }
    try {
      if (!(await this.isInstalled(appId, signal))) throw this.notInstalled(appId);
      await this.run(['uninstall', this.options.udid, appId], signal);
      this.builds.delete(appId);
    } catch (error) {
      throw this.failed(`remove ${appId}`, error);
    }
  }

  /** No simctl verb clears an app's data: stop it, reinstall the build Apex installed, reset its permissions. */
  async reset(appId: string, signal: AbortSignal): Promise<void> {
    const build = this.builds.get(appId);
    try {
      if (!(await this.isInstalled(appId, signal))) throw this.notInstalled(appId);
      if (!build) {
        throw new ApexError('unsupported_operation', `Device ${this.options.deviceId} can reset only apps Apex installed since it started ("${appId}" was not).`, {
          hint: 'Install the app with install_app, then reset it.',
        });
      }
      await this.run(['terminate', this.options.udid, appId], signal).catch((error: unknown) => {
        // Not running is fine.
        if (!(error instanceof SimctlFailure)) throw error;
      });
      await this.run(['uninstall', this.options.udid, appId], signal);
      await this.run(['install', this.options.udid, build.path], signal);
      await this.run(['privacy', this.options.udid, 'reset', 'all', appId], signal);
    } catch (error) {
      throw this.failed(`reset ${appId}`, error);
    }
  }

  async setPermission(appId: string, permission: Permission, state: PermissionState, signal: AbortSignal): Promise<void> {
    const service = PRIVACY_SERVICES[permission];
    if (!service) {
      throw new ApexError('unsupported_operation', `Device ${this.options.deviceId} is a simulator: its ${permission} permission cannot be set from outside.`, {
        hint: 'Answer the app\'s own alert with handle_alert instead.',
      });
    }
    const verb = state === 'granted' ? 'grant' : state === 'denied' ? 'revoke' : 'reset';
    try {
      if (!(await this.isInstalled(appId, signal))) throw this.notInstalled(appId);
      await this.run(['privacy', this.options.udid, verb, service, appId], signal);
    } catch (error) {
      throw this.failed(`set the ${permission} permission of ${appId}`, error);
    }
  }

  async biometric(action: BiometricAction, signal: AbortSignal): Promise<void> {
    const notify = (...args: string[]) => this.run(['spawn', this.options.udid, 'notifyutil', ...args], signal);
    try {
      if (action === 'enroll' || action === 'unenroll') {
        await notify('-s', ENROLLMENT, action === 'enroll' ? '1' : '0');
        await notify('-p', ENROLLMENT);
        return;
      }
      for (const domain of MATCH_DOMAINS) await notify('-p', `com.apple.BiometricKit_Sim.${domain}.${action === 'match' ? '' : 'no'}match`);
    } catch (error) {
      throw this.failed(`simulate a biometric ${action}`, error);
    }
  }

  /** `simctl push <udid> <bundle id> -` reads the APNs payload from stdin. */
  async push(notification: PushNotification, signal: AbortSignal): Promise<void> {
    const payload = { ...(notification.payload ?? {}), aps: { alert: { title: notification.title, body: notification.body } } };
    try {
      if (!(await this.isInstalled(notification.appId, signal))) throw this.notInstalled(notification.appId);
      await this.run(['push', this.options.udid, notification.appId, '-'], signal, JSON.stringify(payload));
    } catch (error) {
      throw this.failed(`deliver a notification to ${notification.appId}`, error);
    }
  }

  async addMedia(file: MediaFile, signal: AbortSignal): Promise<void> {
    try {
      await this.run(['addmedia', this.options.udid, file.path], signal);
    } catch (error) {
      throw this.failed(`add a ${file.kind} to its library`, error);
    }
  }
}

export function createSimctlControl(options: SimctlOptions): SimulatorControl {
  return new SimctlControl(options);
}
