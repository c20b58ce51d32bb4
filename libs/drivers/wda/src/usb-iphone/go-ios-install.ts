import { ApexError, echoName } from '@apex/errors';
import { runTool, ToolMissing, type RunTool } from '@apex/ios-host';
import type { AppBuild } from '@apex/port';

/*
 * Installing on a real iPhone over USB, which WebDriverAgent cannot: go-ios (`ios`, npm `go-ios`), whose
 * `ios install --path=<ipaOrAppFolder> --udid=U` streams the build to the phone's installer (zipconduit) and
 * `ios apps --list --udid=U` lists the user's apps one per line as "BUNDLE_ID NAME VERSION" (go-ios main.go,
 * `installApp`, `printInstalledApps`). go-ios logs JSON lines on stderr (log/slog: {"level":"ERROR","msg":…,
 * "err":…}) and exits 1 on a failure; those stay in the cause, never in a message.
 */

export interface GoIosInstallOptions {
  deviceId: string;
  /** The iPhone's UDID as the USB service reports it. */
  udid: string;
  /** go-ios' binary: config `ios.goIos`, else `ios` on PATH. */
  goIos: string;
  env?: NodeJS.ProcessEnv;
  /** The host tool runner (tests give none: the stand-ins run through the real one). */
  run?: RunTool;
}

class GoIosFailure extends Error {
  constructor(readonly stderr: string) {
    super(`go-ios failed: ${stderr.slice(0, 500)}`);
    this.name = 'GoIosFailure';
  }
}

export function goIosInstaller(options: GoIosInstallOptions): (build: AppBuild, signal: AbortSignal) => Promise<{ replaced: boolean }> {
  const run = options.run ?? runTool;
  const goIos = async (args: string[], signal: AbortSignal): Promise<string> => {
    try {
      const result = await run(options.goIos, [...args, `--udid=${options.udid}`], { signal, env: options.env });
      if (result.code !== 0) throw new GoIosFailure(result.stderr);
      return result.stdout;
    } catch (error) {
      if (error instanceof ToolMissing) {
        throw new ApexError('unsupported_operation', `Device ${options.deviceId} cannot install apps: Apex installs on an iPhone over USB with go-ios, which is not installed on this computer.`, {
          hint: 'Install it (npm i go-ios) or set ios.goIos in the configuration to its binary, then retry.',
          cause: error,
        });
      }
      throw error;
    }
  };
  return async (build, signal) => {
    if (build.kind === 'apk') {
      throw new ApexError('invalid_argument', `Device ${options.deviceId} is an iPhone: it installs .app or .ipa builds, not "${echoName(build.name)}" (an Android build).`, {
        hint: 'Build the iOS variant of the app and install that.',
      });
    }
    try {
      const listed = await goIos(['apps', '--list'], signal);
      const replaced = listed.split('\n').some((line) => line.split(' ')[0] === build.appId);
      await goIos(['install', `--path=${build.path}`], signal);
      return { replaced };
    } catch (error) {
      if (!(error instanceof GoIosFailure)) throw error;
      throw new ApexError('device_error', `Device ${options.deviceId} did not install "${echoName(build.name)}".`, {
        hint: 'Check that the phone is unlocked and trusts this computer, and that the build is signed for it (a development or ad-hoc profile that lists this phone); then retry.',
        cause: error,
      });
    }
  };
}
