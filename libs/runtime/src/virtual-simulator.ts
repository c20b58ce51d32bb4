import { ApexError } from '@apex/errors';
import { readBuildFile } from '@apex/capability';
import type { SimulatorControl } from '@apex/driver-wda';
import type { AppBuild } from '@apex/port';
import { PhoneError, type VirtualIPhone } from '@apex/virtual-device';

/** The screens file a build may carry for the virtual iPhone (see libs/virtual-device/src/iphone/README.md). */
const SCREENS_FILE = 'apex-screens.json';
const MAX_SCREENS_FILE_BYTES = 256 * 1024;

/**
 * The embedded virtual iPhone's simulator control: what `xcrun simctl` does for a real simulator, done on the
 * in-process phone. It reads the build as simctl would (Info.plist through the capability layer, and the
 * screens file), and speaks to the phone's own API — the WebDriverAgent face stays for what WDA does. Its log
 * and crash reports are the phone's own, in the formats a simulator's tools give them.
 */
export function virtualSimulatorControl(iphone: Pick<VirtualIPhone, 'phone' | 'diagnostics'>, deviceId: string): SimulatorControl {
  const { phone, diagnostics } = iphone;
  const onPhone = async <T>(call: () => T | Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof PhoneError)) throw error;
      switch (error.kind) {
        case 'app_not_installed':
          throw new ApexError('app_not_found', `Device ${deviceId} has no such app.`, { hint: 'Install it with install_app first.', cause: error });
        case 'system_app':
          throw new ApexError('unsupported_operation', `Device ${deviceId} cannot change a system app.`, { hint: 'Only apps you installed can be removed or replaced.', cause: error });
        case 'invalid_argument':
          throw new ApexError('invalid_argument', `The build cannot run on device ${deviceId}: ${error.message}.`, { hint: `Fix ${SCREENS_FILE} in the app bundle.`, cause: error });
        default:
          throw new ApexError('device_error', `Device ${deviceId} failed: ${error.message}.`, { cause: error });
      }
    }
  };
  return {
    install: (build: AppBuild) =>
      onPhone(async () => {
        const file = await readBuildFile(build, SCREENS_FILE, MAX_SCREENS_FILE_BYTES);
        let screens: unknown;
        if (file) {
          try {
            screens = JSON.parse(file.toString('utf8'));
          } catch {
            throw new ApexError('invalid_argument', `The build's ${SCREENS_FILE} is not valid JSON.`, { hint: `Fix ${SCREENS_FILE} in the app bundle.` });
          }
        }
        return phone.installApp({ bundleId: build.appId, name: build.name, ...(build.version ? { version: build.version } : {}), ...(file ? { screens } : {}) });
      }),
    uninstall: (appId) => onPhone(() => phone.uninstallApp(appId)),
    reset: (appId) => onPhone(() => phone.resetApp(appId)),
    setPermission: (appId, permission, state) => onPhone(() => phone.setPermission(appId, permission, state)),
    biometric: (action) => onPhone(() => phone.biometric(action)),
    push: ({ appId, title, body }) => onPhone(() => phone.pushNotification({ bundleId: appId, title, body })),
    addMedia: (file) => onPhone(() => phone.addMedia(file.kind)),
    logLines: (sinceMs, signal) => diagnostics.logLines(sinceMs, signal),
    crashFiles: (signal) => diagnostics.crashFiles(signal),
  };
}
