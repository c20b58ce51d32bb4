import { ApexError, echoName } from '@apex/errors';
import { AdbServerFailure } from './adb-server/adb-server-client';
import { AdbTransportError } from './adb-server/socket-reader';

/**
 * Every failure of the debugging connection as an ApexError in Apex's words. The server's own text (which
 * names its tools) stays in `cause`. The adb server's refusals are AOSP's (adb/transport.cpp
 * `acquire_one_transport`, adb/client/adb_client.cpp): "device 'X' not found", "device offline",
 * "device unauthorized.\n…", "device still authorizing", "no devices/emulators found".
 */

export interface Where {
  deviceId: string;
  /** The phone as the server lists it, or HOST:PORT of its adbd. */
  serial: string;
  /** host:port of the adb server, for messages; absent for a direct connection. */
  server?: string;
  /** Reached straight at its adbd over TCP (no server in between). */
  direct?: boolean;
}

/** A command the device ran and failed: its text (for logs) and exit code. */
export class DeviceCommandFailure extends Error {
  constructor(
    readonly exitCode: number,
    readonly output: string,
  ) {
    super(`exit ${exitCode}: ${output.slice(0, 500)}`);
    this.name = 'DeviceCommandFailure';
  }
}

export function translateAdbFailure(error: unknown, where: Where, action: string): ApexError {
  if (error instanceof ApexError) return error;
  const device = `Device ${where.deviceId}`;
  if (error instanceof AdbTransportError) {
    switch (error.kind) {
      case 'aborted':
        return new ApexError('device_timeout', `${device} did not finish the request to ${action} in time; the request was stopped.`, {
          hint: 'Retry; if it keeps happening, check that the phone is responsive.',
          cause: error,
        });
      case 'refused':
      case 'connect_timeout':
        if (where.direct) {
          return new ApexError('device_offline', `${device} cannot be reached: nothing answers at ${echoName(where.serial)}.`, {
            hint: 'Check that the phone is on this network with debugging over the network turned on, and the address in the config; then retry.',
            cause: error,
          });
        }
        return new ApexError('device_offline', `${device} cannot be reached: no Android debugging server answers at ${where.server}.`, {
          hint: 'Start the Android debugging server on this computer (Android Studio and the platform tools start it), or fix the server address in the config, then retry.',
          cause: error,
        });
      case 'too_large':
        return new ApexError('device_error', `${device} sent more data than Apex accepts while trying to ${action}.`, { cause: error });
      default:
        return new ApexError('device_offline', `${device} dropped the connection while trying to ${action}.`, {
          hint: 'Check that the phone is still connected, then retry.',
          cause: error,
        });
    }
  }
  if (error instanceof AdbServerFailure && error.service === 'sync:') {
    // The device refused a file transfer (no space, a folder in the way): its reason stays in the cause.
    return new ApexError('device_error', `${device} refused the file Apex sent to ${action}.`, { hint: 'Check the phone’s free space, then retry.', cause: error });
  }
  if (error instanceof AdbServerFailure) {
    const text = error.message;
    if (/unauthori[sz]ed|still authorizing/i.test(text)) {
      return new ApexError('device_offline', `${device} has not allowed this computer to debug it.`, {
        hint: 'Unlock the phone and accept the prompt to allow debugging from this computer, then retry.',
        cause: error,
      });
    }
    if (/not found|no devices|no emulators/i.test(text)) {
      return new ApexError('device_offline', `${device} is not connected: no phone with serial "${echoName(where.serial)}" is attached to the debugging server.`, {
        hint: 'Plug the phone in (or start the emulator) with debugging turned on, and check the serial in the config; then retry.',
        cause: error,
      });
    }
    if (/offline|still connecting|connecting/i.test(text)) {
      return new ApexError('device_offline', `${device} is attached but offline.`, {
        hint: 'Reconnect the phone (or restart the emulator), then retry.',
        cause: error,
      });
    }
    if (/closed/i.test(text)) {
      return new ApexError('unsupported_operation', `${device} refused the command service Apex needs to ${action}; it may run an Android version older than 7.`, {
        hint: 'Use a phone with Android 7 or newer.',
        cause: error,
      });
    }
    return new ApexError('device_error', `${device} refused the request to ${action}.`, { hint: 'Retry; if it keeps happening, reconnect the phone.', cause: error });
  }
  if (error instanceof DeviceCommandFailure) {
    return new ApexError('device_error', `${device} could not ${action} (the system command failed with status ${error.exitCode}).`, {
      hint: 'Retry; if it keeps happening, check the phone.',
      cause: error,
    });
  }
  return new ApexError('device_error', `${device} failed to ${action}.`, { cause: error });
}

/**
 * PackageManager's install failures (PackageManager.INSTALL_FAILED_* / INSTALL_PARSE_FAILED_*) in Apex's words.
 * The code itself stays in `cause`: clients read what to do, not Android's constant.
 */
export function installFailure(deviceId: string, appName: string, code: string, message: string): ApexError {
  const cause = new DeviceCommandFailure(1, `Failure [${code}: ${message}]`);
  const app = `"${echoName(appName)}"`;
  if (code.startsWith('INSTALL_PARSE_FAILED') || code === 'INSTALL_FAILED_INVALID_APK' || code === 'INSTALL_FAILED_TEST_ONLY') {
    return new ApexError('invalid_argument', `Device ${deviceId} cannot install ${app}: the phone does not accept the build as an app (damaged, unsigned, or not an app).`, {
      hint: 'Rebuild the app (a signed debug build from your build tool installs) and try again.',
      cause,
    });
  }
  if (code === 'INSTALL_FAILED_UPDATE_INCOMPATIBLE' || code === 'INSTALL_FAILED_SHARED_USER_INCOMPATIBLE') {
    return new ApexError('invalid_argument', `Device ${deviceId} already has a build of ${app} signed with another key; it cannot be replaced by this one.`, {
      hint: 'Uninstall the app first (a system app cannot be replaced), then install again.',
      cause,
    });
  }
  if (code === 'INSTALL_FAILED_VERSION_DOWNGRADE') {
    return new ApexError('invalid_argument', `Device ${deviceId} has a newer version of ${app} installed; this build would downgrade it.`, {
      hint: 'Uninstall the app first, or raise the build’s version code.',
      cause,
    });
  }
  if (code === 'INSTALL_FAILED_OLDER_SDK') {
    return new ApexError('unsupported_operation', `Device ${deviceId} runs an Android version older than ${app} needs.`, { hint: 'Use a phone with a newer Android version, or lower the build’s minimum.', cause });
  }
  if (code === 'INSTALL_FAILED_NO_MATCHING_ABIS') {
    return new ApexError('unsupported_operation', `Device ${deviceId} has a processor ${app}'s native code was not built for.`, { hint: 'Build the app for this phone’s processor (or as a universal build).', cause });
  }
  if (code === 'INSTALL_FAILED_INSUFFICIENT_STORAGE') {
    return new ApexError('device_error', `Device ${deviceId} has no room to install ${app}.`, { hint: 'Free some space on the phone, then retry.', cause });
  }
  if (code === 'INSTALL_FAILED_USER_RESTRICTED' || code === 'INSTALL_FAILED_ABORTED') {
    return new ApexError('device_error', `Device ${deviceId} refused to install ${app} (installing over the debugging connection is turned off, or a prompt on the phone was declined).`, {
      hint: 'Allow installing over the debugging connection in the phone’s developer options, accept any prompt on the phone, then retry.',
      cause,
    });
  }
  return new ApexError('device_error', `Device ${deviceId} could not install ${app}.`, { hint: 'Retry; if it keeps failing, install it once by hand to see the phone’s reason.', cause });
}
