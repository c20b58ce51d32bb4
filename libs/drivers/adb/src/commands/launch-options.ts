import { ApexError, echoName } from '@apex/errors';
import type { LaunchOptions } from '@apex/port';
import { shell, type AdbContext } from '../adb-context';
import { DeviceCommandFailure } from '../errors';
import { assertPackageName, installed } from './apps';

/*
 * A launch with options on Android: the app's launcher activity started afresh (`am start -S -W -n PKG/ACTIVITY`)
 * with the arguments as the intent's string extras. The mapping, in Apex's words:
 * - `arguments` are read as KEY VALUE pairs, each one string extra `--es KEY VALUE` (the app reads it with
 *   `getIntent().getStringExtra(KEY)`). One leading `-` of a key is dropped, so the iOS-style `-Key value`
 *   (what NSUserDefaults reads from the arguments) reaches an Android app as the extra `Key`.
 * - `environment`: refused. Android apps are forked from the zygote, which every app shares; nothing passes
 *   a per-launch environment to the app's process.
 * - `locale`: refused. Android's per-app language (Android 13+) is a lasting setting of the app, not a property
 *   of one launch; setting it here would outlive the launch the caller asked for.
 * Every option is checked before the phone is touched: a refused launch changes nothing.
 */

const LAUNCHER = ['-a', 'android.intent.action.MAIN', '-c', 'android.intent.category.LAUNCHER'];
/** An extra's key: what an app can name in code (letters, digits, `_`, `.`), so it survives every shell. */
const EXTRA_KEY = /^[A-Za-z_][A-Za-z0-9_.]*$/;

/** The launch arguments as string extras, in order; `invalid_argument` for an odd count or a key no app could read. */
export function extrasOf(deviceId: string, args: readonly string[]): Array<[string, string]> {
  if (args.length % 2 !== 0) {
    throw new ApexError('invalid_argument', `Device ${deviceId} is an Android phone: its launch arguments are KEY VALUE pairs, and ${args.length} arguments make no pairs.`, {
      hint: 'Give the arguments as pairs, e.g. ["-mode", "demo"]; the app reads each value by its key.',
    });
  }
  const extras: Array<[string, string]> = [];
  for (let i = 0; i < args.length; i += 2) {
    const key = args[i].replace(/^-/, '');
    if (!EXTRA_KEY.test(key)) {
      throw new ApexError('invalid_argument', `Launch argument "${echoName(args[i])}" cannot be a key on Android: keys are letters, digits, "_" and ".", with one optional leading "-".`, {
        hint: 'Give the arguments as KEY VALUE pairs, e.g. ["-mode", "demo"].',
      });
    }
    extras.push([key, args[i + 1]]);
  }
  return extras;
}

function refuse(deviceId: string, what: string, reason: string, hint: string): ApexError {
  return new ApexError('unsupported_operation', `Device ${deviceId} cannot launch an app with ${what}: ${reason}`, { hint });
}

/** Checks every option first; then resolves the launcher activity and starts it afresh with the extras. */
export async function launchAppWith(ctx: AdbContext, appId: string, options: LaunchOptions, signal: AbortSignal): Promise<void> {
  if (options.environment && Object.keys(options.environment).length > 0) {
    throw refuse(ctx.deviceId, 'environment variables', 'Android starts every app from one shared system process, which takes no environment per launch.', 'Pass the values as launch arguments (KEY VALUE pairs): the app receives them as string extras.');
  }
  if (options.locale !== undefined) {
    throw refuse(ctx.deviceId, 'a locale', 'Android sets an app’s language as a lasting setting of the app, not for one launch.', 'Change the phone’s or the app’s language in Settings, or pass it as a launch argument the app reads.');
  }
  const extras = extrasOf(ctx.deviceId, options.arguments ?? []);
  assertPackageName(ctx, appId, notLaunchable);
  const resolved = await shell(ctx, ['cmd', 'package', 'resolve-activity', '--brief', ...LAUNCHER, appId], signal);
  const component = launcherComponent(resolved.stdout.toString('utf8'), appId);
  if (!component) {
    throw notLaunchable(ctx, appId, new DeviceCommandFailure(resolved.exitCode, resolved.stdout.toString('utf8') + resolved.stderr.toString('utf8')));
  }
  // -S: stop a running process first, so the new one gets these extras; -W: answer once the activity started.
  const argv = ['am', 'start', '-S', '-W', '-n', component, ...extras.flatMap(([key, value]) => ['--es', key, value])];
  const result = await shell(ctx, argv, signal);
  const output = result.stdout.toString('utf8') + result.stderr.toString('utf8');
  if (result.exitCode === 0 && !/^Error/m.test(output)) return;
  if (!(await installed(ctx, appId, signal))) throw notLaunchable(ctx, appId, new DeviceCommandFailure(result.exitCode, output));
  throw new DeviceCommandFailure(result.exitCode, output);
}

/** `resolve-activity --brief`'s last line, `PKG/CLASS`, when it names this package. */
export function launcherComponent(text: string, appId: string): string | undefined {
  const last = text.trim().split('\n').pop()?.trim() ?? '';
  return last.startsWith(`${appId}/`) && /^[A-Za-z0-9_.]+\/[A-Za-z0-9_.$]+$/.test(last) ? last : undefined;
}

function notLaunchable(ctx: AdbContext, appId: string, cause?: unknown): ApexError {
  return new ApexError('app_not_found', `Device ${ctx.deviceId} has no app "${echoName(appId)}" it can launch.`, {
    hint: 'Check the package name (list_apps shows the installed ones), e.g. com.example.myapp.',
    cause,
  });
}
