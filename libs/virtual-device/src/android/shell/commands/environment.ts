import type { GeoFix } from '../../device/location';
import type { Command, CommandIO } from '../command';

/*
 * The phone's environment as the shell changes it: `cmd notification post` (NotificationShellCmd),
 * `cmd location` (LocationShellCommand, Android 12+), `appops set|get`. Outputs and failures are those
 * services' own, quoted from AOSP (frameworks/base services/core/java/com/android/server/notification/
 * NotificationShellCmd.java, location/LocationShellCommand.java, appop/AppOpsService.java's shell).
 */

/** The shell's own package: what `cmd …` calls in as. */
export const SHELL_PACKAGE = 'com.android.shell';

const NOTIFY_USAGE = [
  'usage: cmd notification post [flags] <tag> <text>',
  '',
  'flags:',
  '  -h|--help',
  '  -v|--verbose',
  '  -t|--title <text>',
  '  -i|--icon <iconspec>',
  '  -I|--large-icon <iconspec>',
  '  -S|--style <style> [styleargs]',
  '  -c|--content-intent <intentspec>',
  '',
].join('\n');

/** Intent options (`am start` style) that take one value, and those that take two (extras). */
const INTENT_ONE = new Set(['-a', '-d', '-t', '-i', '-c', '-n', '-p', '-f', '--selector', '--package']);
const INTENT_TWO = new Set(['-e', '--es', '--ei', '--ez', '--el', '--ef', '--eu', '--ecn', '--eia', '--ela', '--efa', '--esa', '--esn']);
const INTENT_ZERO = new Set(['--grant-read-uri-permission', '--grant-write-uri-permission', '--activity-clear-top', '--activity-new-task', '--activity-single-top', '--include-stopped-packages', '--receiver-foreground']);

class ArgumentMissing extends Error {}

/** `cmd notification post [flags] TAG TEXT`: posted by the shell, with a content intent that opens an app when given. */
function notificationPost(args: string[], io: CommandIO): number {
  let i = 0;
  const next = (flag: string): string => {
    const v = args[i++];
    if (v === undefined) throw new ArgumentMissing(`Argument expected after "${flag}"`);
    return v;
  };
  let title: string | undefined;
  let opens: string | undefined;
  try {
    while (i < args.length && args[i].startsWith('-')) {
      const opt = args[i++];
      if (opt === '--') break;
      switch (opt) {
        case '-v':
        case '--verbose':
          break;
        case '-t':
        case '--title':
          title = next(opt);
          break;
        case '-i':
        case '--icon':
        case '-I':
        case '--large-icon':
        case '-S':
        case '--style':
        case '--bigtext':
        case '--picture':
        case '--line':
        case '--message':
        case '--conversation':
          next(opt);
          break;
        case '-c':
        case '--content-intent':
        case '--intent': {
          if (['broadcast', 'service', 'activity'].includes(args[i] ?? '')) i++;
          let component: string | undefined;
          let pkg: string | undefined;
          // Intent.parseCommandArgs: options, then one argument (a URI, a component or a package).
          while (i < args.length && args[i].startsWith('-')) {
            const o = args[i++];
            if (INTENT_ZERO.has(o)) continue;
            if (INTENT_TWO.has(o)) {
              next(o);
              next(o);
            } else if (INTENT_ONE.has(o)) {
              const v = next(o);
              if (o === '-n') component = v;
              if (o === '-p' || o === '--package') pkg = v;
            } else throw new ArgumentMissing(`Unknown option: ${o}`);
          }
          const target = args[i++];
          if (target !== undefined && !target.includes(':')) {
            if (target.includes('/')) component = target;
            else pkg = target;
          }
          opens = component?.split('/')[0] ?? pkg;
          break;
        }
        default:
          io.out(`${NOTIFY_USAGE}\n`);
          return 0;
      }
    }
  } catch (error) {
    if (!(error instanceof ArgumentMissing)) throw error;
    // NotificationShellCmd catches everything and reports it on stdout, with status 0.
    io.out(`Error occurred. Check logcat for details. ${error.message}\n`);
    return 0;
  }
  const tag = args[i++];
  const text = args[i++];
  if (tag === undefined || text === undefined) {
    io.out(`${NOTIFY_USAGE}\n`);
    return 255;
  }
  io.out('posting:\n  Notification(channel=shell_cmd shortcut=null contentView=null vibrate=null sound=null defaults=0x0 flags=0x0 color=0x00000000 vis=PRIVATE)\n');
  io.phone.postNotification({ key: `0|${SHELL_PACKAGE}|2020|${tag}|2000`, poster: SHELL_PACKAGE, text, ...(title === undefined ? {} : { title }), ...(opens === undefined ? {} : { opens }) });
  return 0;
}

export function notificationCommand(args: string[], io: CommandIO): number {
  if (args[0] === 'post') return notificationPost(args.slice(1), io);
  io.out('usage: cmd notification SUBCMD [args]\n\nSUBCMDs:\n  post [--help | flags] TAG TEXT\n');
  return args[0] === undefined || args[0] === 'help' ? 0 : 255;
}

function exception(io: CommandIO, cmd: string, text: string): number {
  io.err(`Exception occurred while executing '${cmd}':\n${text}\n`);
  return 255;
}

function parseFix(value: string | undefined): GeoFix | undefined {
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(value ?? '');
  if (!m) return undefined;
  const fix = { latitude: Number(m[1]), longitude: Number(m[2]) };
  return Math.abs(fix.latitude) <= 90 && Math.abs(fix.longitude) <= 180 ? fix : undefined;
}

/** `cmd location is-location-enabled|set-location-enabled|providers …` (test providers need MOCK_LOCATION). */
export function locationCommand(args: string[], io: CommandIO): number {
  const phone = io.phone;
  const [sub, ...rest] = args;
  if (sub === 'is-location-enabled') {
    io.out(`${phone.location.enabled}\n`);
    return 0;
  }
  if (sub === 'set-location-enabled') {
    if (rest[0] !== 'true' && rest[0] !== 'false') return exception(io, sub, `java.lang.IllegalArgumentException: Invalid boolean: ${rest[0] ?? ''}`);
    phone.changeLocation((l) => (l.enabled = rest[0] === 'true'));
    return 0;
  }
  if (sub !== 'providers') {
    io.out('Location service commands:\n  help or -h\n  is-location-enabled\n  set-location-enabled true|false\n  providers\n');
    return sub === undefined || sub === 'help' || sub === '-h' ? 0 : 255;
  }
  const [verb, provider, ...options] = rest;
  if (!provider) return exception(io, 'providers', 'java.lang.IllegalArgumentException: Argument expected after "' + (verb ?? 'providers') + '"');
  switch (verb) {
    case 'add-test-provider':
      phone.changeLocation((l) => (l.addTestProvider(SHELL_PACKAGE, provider), true));
      return 0;
    case 'remove-test-provider':
      phone.changeLocation((l) => (l.removeTestProvider(SHELL_PACKAGE, provider), true));
      return 0;
    case 'set-test-provider-enabled': {
      if (options[0] !== 'true' && options[0] !== 'false') return exception(io, 'providers', `java.lang.IllegalArgumentException: Invalid boolean: ${options[0] ?? ''}`);
      if (!phone.changeLocation((l) => l.setTestProviderEnabled(SHELL_PACKAGE, provider, options[0] === 'true'))) {
        return exception(io, 'providers', `java.lang.IllegalArgumentException: provider doesn't exist: ${provider}`);
      }
      return 0;
    }
    case 'set-test-provider-location': {
      const at = options.indexOf('--location');
      const fix = parseFix(at >= 0 ? options[at + 1] : undefined);
      if (!fix) return exception(io, 'providers', 'java.lang.IllegalArgumentException: location must be specified as <LATITUDE,LONGITUDE>');
      if (!phone.changeLocation((l) => l.setTestProviderLocation(SHELL_PACKAGE, provider, fix))) {
        return exception(io, 'providers', `java.lang.IllegalArgumentException: provider doesn't exist: ${provider}`);
      }
      return 0;
    }
    default:
      return exception(io, 'providers', `java.lang.IllegalArgumentException: unknown command: ${verb ?? ''}`);
  }
}

const APP_OP_MODES = new Set(['allow', 'ignore', 'deny', 'default', 'foreground']);
const KNOWN_OPS = new Set(['MOCK_LOCATION', 'COARSE_LOCATION', 'FINE_LOCATION', 'CAMERA', 'RECORD_AUDIO', 'POST_NOTIFICATION', 'SYSTEM_ALERT_WINDOW', 'GET_USAGE_STATS']);

/** `appops set [--user N] PKG OP MODE`, `appops get PKG [OP]`. */
export const appops: Command = (argv, io) => {
  const args = argv.slice(1).filter((a, i, all) => a !== '--user' && all[i - 1] !== '--user' && a !== '--uid');
  const [verb, pkg, op, mode] = args;
  const opName = op?.replace(/^android:/, '').toUpperCase();
  if ((verb === 'set' || verb === 'get') && pkg && !io.phone.app(pkg) && pkg !== SHELL_PACKAGE) {
    io.err(`Error: Unknown package: ${pkg}\n`);
    return 255;
  }
  if (verb === 'set' && pkg && opName && mode) {
    if (!KNOWN_OPS.has(opName)) {
      io.err(`Error: Unknown operation string: ${op}\n`);
      return 255;
    }
    if (!APP_OP_MODES.has(mode)) {
      io.err(`Error: Mode ${mode} is not valid\n`);
      return 255;
    }
    io.phone.changeLocation((l) => (l.setAppOp(pkg, opName, mode), true));
    return 0;
  }
  if (verb === 'get' && pkg) {
    const ops = opName ? [opName] : [...KNOWN_OPS];
    const set = ops.map((o) => [o, io.phone.location.appOp(pkg, o)] as const).filter(([, m]) => m !== undefined);
    if (set.length === 0) io.out('No operations.\n');
    for (const [o, m] of set) io.out(`${o}: ${m}\n`);
    return 0;
  }
  io.err('usage: appops set [--user <USER_ID>] <PACKAGE | UID> <OP> <MODE>\n       appops get [--user <USER_ID>] <PACKAGE | UID> [<OP>]\n');
  return 255;
};
