import { isApexError } from '@apex/errors';
import {
  EMULATOR_FLAGS,
  androidProfileFlag,
  emulatorArgsFromFlags,
  emulatorOptionsFromArgs,
  runVirtualAndroidUntilSignal,
  runVirtualIPhoneUntilSignal,
  type VirtualAndroidRunOptions,
  type VirtualIPhoneOptions,
} from '@apex/virtual-device';
import { UsageError, type CommandImpl } from '../cli';

/** The port a real iPhone's automation server listens on by default. */
const DEFAULT_PORT = 8100;
/** The port an Android device's adbd listens on for `adb connect` (`adb tcpip 5555`). */
const DEFAULT_ADB_PORT = 5555;

/** `apex emulator`: a virtual iPhone (or, with `--platform android`, a virtual Android phone) on a local port, until Ctrl-C. */
export const emulatorCommand: CommandImpl = {
  options: { ...EMULATOR_FLAGS, platform: { type: 'string' } },
  async run(values, positionals) {
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const platform = values['platform'] ?? 'ios';
    if (platform !== 'ios' && platform !== 'android') throw new UsageError(`--platform must be ios or android, got '${String(platform)}'`);
    try {
      if (platform === 'android') return runVirtualAndroidUntilSignal(androidOptions(values));
      const options: VirtualIPhoneOptions = emulatorOptionsFromArgs(emulatorArgsFromFlags(values), DEFAULT_PORT);
      return runVirtualIPhoneUntilSignal(options);
    } catch (error) {
      if (isApexError(error)) throw new UsageError(error.hint ? `${error.message} ${error.hint}` : error.message);
      throw error;
    }
  },
};

/** The flags that mean something for the virtual Android phone; the iPhone-only ones are refused by name. */
function androidOptions(values: Record<string, unknown>): VirtualAndroidRunOptions {
  const args = emulatorArgsFromFlags(values);
  if (args.mjpegPort !== undefined || args.faults || args.allowRemote) {
    throw new UsageError('--mjpeg-port, --faults and --allow-remote are for the virtual iPhone only');
  }
  if (args.host !== undefined && args.host !== '127.0.0.1') throw new UsageError('the virtual Android phone listens on 127.0.0.1 only');
  // The port rule is the iPhone's (an integer 0–65535), checked in one place.
  const port = emulatorOptionsFromArgs({ port: args.port }, DEFAULT_ADB_PORT).port ?? DEFAULT_ADB_PORT;
  const appearance = emulatorOptionsFromArgs({ appearance: args.appearance }, DEFAULT_ADB_PORT).appearance;
  return { port, appearance, profile: args.profile === undefined ? undefined : androidProfileFlag(args.profile) };
}
