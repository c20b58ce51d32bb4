import { launchExtras } from '@apex/android-source';
import { ApexError, echoName } from '@apex/errors';
import type { LaunchOptions } from '@apex/port';
import { shell, type AdbContext } from '../adb-context';
import { DeviceCommandFailure } from '../errors';
import { assertPackageName, installed } from './apps';

/*
 * A launch with options on Android: the app's launcher activity started afresh (`am start -S -W -n PKG/ACTIVITY`)
 * with the arguments as string extras (`--es KEY VALUE`); the mapping and what is refused: `launchExtras`
 * (@apex/android-source). Every option is checked before the phone is touched: a refused launch changes nothing.
 */

const LAUNCHER = ['-a', 'android.intent.action.MAIN', '-c', 'android.intent.category.LAUNCHER'];

/** Checks every option first; then resolves the launcher activity and starts it afresh with the extras. */
export async function launchAppWith(ctx: AdbContext, appId: string, options: LaunchOptions, signal: AbortSignal): Promise<void> {
  const extras = launchExtras(ctx.deviceId, options);
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
