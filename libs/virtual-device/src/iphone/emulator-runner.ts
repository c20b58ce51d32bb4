import { ApexError, isApexError } from '@apex/errors';
import { assertSafeOpenBind } from '@apex/serve-security';
import { PROFILES } from '.';
import { DEFAULT_HOST, startVirtualIPhone, type VirtualIPhone, type VirtualIPhoneOptions } from './virtual-iphone';
import { untilStopSignal } from '../engine/until-stop-signal';

/**
 * The start logic shared by `apex emulator` and `apps/wda-emulator`: command-line values to validated options,
 * then run until SIGINT/SIGTERM.
 */

export interface EmulatorArgs {
  port?: string;
  /** `--mjpeg-port`: also serve the screen as an MJPEG stream there. */
  mjpegPort?: string;
  host?: string;
  profile?: string;
  appearance?: string;
  /** `--allow-remote`: a non-loopback `--host` is meant. */
  allowRemote?: boolean;
  /** `--faults`: mount the fault admin path /__apex/faults. */
  faults?: boolean;
}

/** The flags of `apex emulator` and `wda-emulator`, as `node:util` parseArgs options. */
export const EMULATOR_FLAGS = {
  port: { type: 'string' },
  'mjpeg-port': { type: 'string' },
  host: { type: 'string' },
  profile: { type: 'string' },
  appearance: { type: 'string' },
  'allow-remote': { type: 'boolean' },
  faults: { type: 'boolean' },
} as const;

/** Parsed `EMULATOR_FLAGS` values as `emulatorOptionsFromArgs` takes them. */
export function emulatorArgsFromFlags(values: Record<string, unknown>): EmulatorArgs {
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  return {
    port: text('port'),
    mjpegPort: text('mjpeg-port'),
    host: text('host'),
    profile: text('profile'),
    appearance: text('appearance'),
    allowRemote: values['allow-remote'] === true,
    faults: values['faults'] === true,
  };
}

/** The flags of `apex emulator` and `wda-emulator`, for their usage lines. */
export const EMULATOR_USAGE =
  '[--port N] [--mjpeg-port N] [--host H [--allow-remote]] [--profile iphone-15|iphone-15-plus|iphone-se] [--appearance light|dark] [--faults]';

/** Validates command-line values; a bad value throws an `invalid_argument` ApexError naming the flag. */
export function emulatorOptionsFromArgs(args: EmulatorArgs, defaultPort: number): VirtualIPhoneOptions {
  const options: VirtualIPhoneOptions = { port: defaultPort };
  if (args.port !== undefined) options.port = portFlag('--port', args.port);
  if (args.mjpegPort !== undefined) options.mjpegPort = portFlag('--mjpeg-port', args.mjpegPort);
  if (args.host !== undefined) {
    if (args.host.trim() === '') throw new ApexError('invalid_argument', '--host must not be empty');
    options.host = args.host;
  }
  if (args.allowRemote) options.allowRemote = true;
  if (args.faults) options.faults = true;
  // Refused here already, so a command line gets a usage error rather than a failed start.
  assertSafeOpenBind(options.host ?? DEFAULT_HOST, options.allowRemote, 'the virtual iPhone');
  if (args.profile !== undefined) {
    if (!Object.prototype.hasOwnProperty.call(PROFILES, args.profile)) {
      throw new ApexError('invalid_argument', `--profile must be one of ${Object.keys(PROFILES).join(', ')}, got '${args.profile}'`);
    }
    options.profile = args.profile;
  }
  if (args.appearance !== undefined) {
    if (args.appearance !== 'light' && args.appearance !== 'dark') {
      throw new ApexError('invalid_argument', `--appearance must be light or dark, got '${args.appearance}'`);
    }
    options.appearance = args.appearance;
  }
  return options;
}

function portFlag(flag: string, text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) throw new ApexError('invalid_argument', `${flag} must be an integer from 0 to 65535, got '${text}'`);
  return port;
}

export interface RunOptions {
  /** Where the URL and status lines go (default stdout). */
  log?: (line: string) => void;
  /** Where a start failure goes (default stderr). */
  error?: (line: string) => void;
  /** Called once the phone is listening (tests, embedding). */
  onStarted?: (iphone: VirtualIPhone) => void;
}

/** Starts a virtual iPhone, prints its URL and runs until SIGINT or SIGTERM. Resolves to the exit code. */
export async function runVirtualIPhoneUntilSignal(options: VirtualIPhoneOptions, run: RunOptions = {}): Promise<number> {
  const log = run.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const error = run.error ?? ((line: string) => process.stderr.write(`${line}\n`));
  let iphone: VirtualIPhone;
  try {
    iphone = await startVirtualIPhone(options);
  } catch (cause) {
    if (!isApexError(cause)) throw cause;
    error(`Cannot start the virtual iPhone: ${cause.message}${cause.hint ? ` ${cause.hint}` : ''}`);
    return 1;
  }
  const { profile } = iphone.phone;
  log(`Virtual iPhone "${iphone.phone.deviceName()}" (${profile.model}, iOS ${profile.osVersion}) speaks WebDriverAgent at ${iphone.url}`);
  if (options.allowRemote) log('Remote use allowed (--allow-remote): anyone who can reach this port can drive the phone.');
  if (iphone.mjpegPort !== undefined) log(`Screen stream (MJPEG) at ${iphone.url.replace(/:\d+$/, `:${iphone.mjpegPort}`)}`);
  if (options.faults) log(`Fault admin at ${iphone.url}/__apex/faults (--faults).`);
  log('Press Ctrl-C to stop.');
  run.onStarted?.(iphone);
  await untilStopSignal();
  await iphone.close();
  log('Virtual iPhone stopped.');
  return 0;
}
