import { ApexError, isApexError } from '@apex/errors';
import { startAdbd, type Adbd } from './adbd';
import { ANDROID_PROFILES } from './profiles';
import { createVirtualAndroid, type VirtualAndroid } from './virtual-android';
import { untilStopSignal } from '../engine/until-stop-signal';

/** What `apex emulator --platform android` takes, already validated. */
export interface VirtualAndroidRunOptions {
  /** The adbd's TCP port; 0 = a free one. */
  port: number;
  /** A key of ANDROID_PROFILES. */
  profile?: string;
  appearance?: 'light' | 'dark';
}

export interface AndroidRunHooks {
  log?: (line: string) => void;
  error?: (line: string) => void;
  /** Called once the phone listens (tests, embedding). */
  onStarted?: (started: { android: VirtualAndroid; adbd: Adbd }) => void;
}

/** Checks a profile name against the Android profiles; an `invalid_argument` naming them otherwise. */
export function androidProfileFlag(profile: string): string {
  if (!Object.prototype.hasOwnProperty.call(ANDROID_PROFILES, profile)) {
    throw new ApexError('invalid_argument', `--profile must be one of ${Object.keys(ANDROID_PROFILES).join(', ')} with --platform android, got '${profile}'`);
  }
  return profile;
}

/** Starts a virtual Android phone behind an adbd on 127.0.0.1, prints how to connect, runs until SIGINT/SIGTERM. */
export async function runVirtualAndroidUntilSignal(options: VirtualAndroidRunOptions, hooks: AndroidRunHooks = {}): Promise<number> {
  const log = hooks.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const error = hooks.error ?? ((line: string) => process.stderr.write(`${line}\n`));
  const android = createVirtualAndroid({ profile: options.profile, dark: options.appearance === 'dark' });
  let adbd: Adbd;
  try {
    // `cmd` is advertised because the phone's shell answers `cmd package …`, as Android 7+ does.
    adbd = await startAdbd({ backend: android.backend, port: options.port, host: '127.0.0.1', extraFeatures: ['cmd'] });
  } catch (cause) {
    if (!isApexError(cause)) throw cause;
    error(`Cannot start the virtual Android phone: ${cause.message}${cause.hint ? ` ${cause.hint}` : ''}`);
    return 1;
  }
  const { profile } = android.phone;
  log(`Virtual Android phone "${profile.model}" (Android 14) listens for adb at ${adbd.serial}`);
  log(`Connect with: adb connect ${adbd.serial}`);
  log('Press Ctrl-C to stop.');
  hooks.onStarted?.({ android, adbd });
  await untilStopSignal();
  await adbd.close();
  log('Virtual Android phone stopped.');
  return 0;
}
