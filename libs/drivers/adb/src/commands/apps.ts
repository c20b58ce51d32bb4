import { ApexError, echoName } from '@apex/errors';
import type { AppList } from '@apex/port';
import { okText, shell, type AdbContext } from '../adb-context';
import { DeviceCommandFailure } from '../errors';
import { parseLauncherActivities, runningProcessNames } from '../parse/dumpsys';
import { androidAppName } from '../app-names';

/*
 * Apps by package name: launched through the launcher intent (`monkey -p PKG -c …LAUNCHER 1`, which resolves
 * the launcher activity itself), stopped with `am force-stop`, listed with `cmd package query-activities`.
 */

const LAUNCHER_CATEGORY = 'android.intent.category.LAUNCHER';

function notInstalled(ctx: AdbContext, appId: string, cause?: unknown): ApexError {
  return new ApexError('app_not_found', `Device ${ctx.deviceId} has no app "${echoName(appId)}" it can launch.`, {
    hint: 'Check the package name (list_apps shows the installed ones), e.g. com.android.settings.',
    cause,
  });
}

/** `app_not_found` for an app the device does not have (any operation but launch). */
export function appNotFound(ctx: AdbContext, appId: string, cause?: unknown): ApexError {
  return new ApexError('app_not_found', `Device ${ctx.deviceId} has no app "${echoName(appId)}" installed.`, {
    hint: 'Check the package name (list_apps shows the apps with an icon), e.g. com.example.myapp.',
    cause,
  });
}

export async function installed(ctx: AdbContext, appId: string, signal: AbortSignal): Promise<boolean> {
  const result = await shell(ctx, ['pm', 'path', appId], signal);
  return result.exitCode === 0 && result.stdout.toString('utf8').includes('package:');
}

/** Package names are letters, digits, `_` and dots (the schema above checks too; this keeps the shell line plain). */
export function assertPackageName(ctx: AdbContext, appId: string, notFound: (ctx: AdbContext, appId: string) => ApexError = notInstalled): void {
  if (!/^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)+$/.test(appId)) throw notFound(ctx, appId);
}

export async function launchApp(ctx: AdbContext, appId: string, signal: AbortSignal): Promise<void> {
  assertPackageName(ctx, appId);
  const result = await shell(ctx, ['monkey', '-p', appId, '-c', LAUNCHER_CATEGORY, '1'], signal);
  const output = result.stdout.toString('utf8') + result.stderr.toString('utf8');
  if (result.exitCode === 0 && /Events injected: 1/.test(output)) return;
  if (/No activities found|monkey aborted/i.test(output) || !(await installed(ctx, appId, signal))) {
    throw notInstalled(ctx, appId, new DeviceCommandFailure(result.exitCode, output));
  }
  throw new DeviceCommandFailure(result.exitCode, output);
}

/** Whether the package has a process, then `am force-stop`. False when it was not running. */
export async function terminateApp(ctx: AdbContext, appId: string, signal: AbortSignal): Promise<boolean> {
  assertPackageName(ctx, appId);
  const running = runningProcessNames(okText(await shell(ctx, ['ps', '-A'], signal))).some((name) => name === appId || name.startsWith(`${appId}:`));
  if (!running && !(await installed(ctx, appId, signal))) throw notInstalled(ctx, appId);
  okText(await shell(ctx, ['am', 'force-stop', appId], signal));
  return running;
}

/** Every app with a launcher icon (complete), named where the device or Apex's table of system apps knows the name. */
export async function listApps(ctx: AdbContext, signal: AbortSignal): Promise<AppList> {
  const [activities, processes] = await Promise.all([
    shell(ctx, ['cmd', 'package', 'query-activities', '-a', 'android.intent.action.MAIN', '-c', LAUNCHER_CATEGORY], signal),
    shell(ctx, ['ps', '-A'], signal),
  ]);
  const running = new Set(runningProcessNames(okText(processes)));
  const apps = parseLauncherActivities(okText(activities)).map((app) => {
    const name = app.label ?? androidAppName(app.appId);
    return { appId: app.appId, ...(name === undefined ? {} : { name }), running: running.has(app.appId) };
  });
  return { apps, complete: true };
}
