import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { ApexError, echoName } from '@apex/errors';
import type { AppBuild, AppState } from '@apex/port';
import { execWithInput, okText, shell, type AdbContext } from '../adb-context';
import { sleep } from '../sleep';
import { DeviceCommandFailure, installFailure } from '../errors';
import { parsePackageList, parsePackageManagerResult, parseTopTask, runningProcessNames } from '../parse/dumpsys';
import { appNotFound, assertPackageName, installed, launchApp } from './apps';
import { pressButton } from './device';

/*
 * The developer's loop on Android: install (`cmd package install -S SIZE` with the APK streamed on stdin over
 * `exec:`, as the adb client and Android Studio do on Android 7+), uninstall (`pm uninstall`), reset
 * (`pm clear`: data and runtime permissions), state (`pm path`, the top task, `ps -A`), background (Home, and the
 * launcher intent again after a while).
 */

/** An install streams the whole build through the server; the phone answers once it has parsed it. */
export async function installApp(ctx: AdbContext, build: AppBuild, signal: AbortSignal): Promise<{ replaced: boolean }> {
  if (build.kind !== 'apk') {
    throw new ApexError('invalid_argument', `Device ${ctx.deviceId} is an Android phone: it installs .apk builds, not "${echoName(build.name)}" (an iOS build).`, {
      hint: 'Build the Android variant of the app (an .apk) and install that.',
    });
  }
  assertPackageName(ctx, build.appId, appNotFound);
  const size = await stat(build.path).then(
    (s) => s.size,
    (cause: unknown) => {
      throw new ApexError('invalid_argument', `The app build "${echoName(build.name)}" cannot be read on this computer.`, { hint: 'Check that the file still exists.', cause });
    },
  );
  const replaced = await installed(ctx, build.appId, signal);
  // -r: replace an installed build (implied since Android 7, said for older ones); -t: debug builds marked test-only.
  const reply = await execWithInput(ctx, ['cmd', 'package', 'install', '-r', '-t', '-S', String(size)], () => createReadStream(build.path, { highWaterMark: 256 * 1024 }), signal);
  const result = parsePackageManagerResult(reply.toString('utf8'));
  if (!result.ok) throw installFailure(ctx.deviceId, build.name, result.code, result.message);
  return { replaced };
}

/** System apps (shipped with the phone, updated or not) are refused; an unknown package is `app_not_found`. */
export async function uninstallApp(ctx: AdbContext, appId: string, signal: AbortSignal): Promise<void> {
  assertPackageName(ctx, appId, appNotFound);
  const [present, system] = await Promise.all([installed(ctx, appId, signal), shell(ctx, ['pm', 'list', 'packages', '-s', appId], signal).then(okText)]);
  if (!present) throw appNotFound(ctx, appId);
  if (parsePackageList(system).includes(appId)) {
    throw new ApexError('unsupported_operation', `Device ${ctx.deviceId} cannot uninstall "${echoName(appId)}": it is a system app that came with the phone.`, {
      hint: 'Only apps installed by the user can be removed; reset_app clears a system app’s data instead.',
    });
  }
  const output = okPackageManager(await shell(ctx, ['pm', 'uninstall', appId], signal));
  if (!output.ok) throw new DeviceCommandFailure(1, `Failure [${output.code}]`);
}

/** `pm clear`: the app stops and loses its data and runtime permissions (Android resets them with the data). */
export async function resetApp(ctx: AdbContext, appId: string, signal: AbortSignal): Promise<void> {
  assertPackageName(ctx, appId, appNotFound);
  const result = await shell(ctx, ['pm', 'clear', appId], signal);
  const text = `${result.stdout.toString('utf8')}${result.stderr.toString('utf8')}`;
  if (result.exitCode === 0 && /^Success\s*$/m.test(text)) return;
  if (!(await installed(ctx, appId, signal))) throw appNotFound(ctx, appId, new DeviceCommandFailure(result.exitCode, text));
  throw new DeviceCommandFailure(result.exitCode, text);
}

/** The app whose task is in front (its own activity or one running in its task), if any. */
async function appInFront(ctx: AdbContext, signal: AbortSignal): Promise<{ pkg: string; affinity?: string } | undefined> {
  return parseTopTask(okText(await shell(ctx, ['dumpsys', 'activity', 'activities'], signal)));
}

export async function appState(ctx: AdbContext, appId: string, signal: AbortSignal): Promise<AppState> {
  assertPackageName(ctx, appId, appNotFound);
  const [present, top, processes] = await Promise.all([installed(ctx, appId, signal), appInFront(ctx, signal), shell(ctx, ['ps', '-A'], signal).then(okText)]);
  if (!present) return 'notInstalled';
  if (top && (top.pkg === appId || top.affinity === appId)) return 'foreground';
  return runningProcessNames(processes).some((name) => name === appId || name.startsWith(`${appId}:`)) ? 'background' : 'notRunning';
}

/** Home; with `seconds`, the app that was in front comes back after that long through its launcher intent. */
export async function backgroundApp(ctx: AdbContext, seconds: number | undefined, signal: AbortSignal): Promise<void> {
  const top = seconds ? await appInFront(ctx, signal) : undefined;
  await pressButton(ctx, 'home', signal);
  const app = top?.affinity ?? top?.pkg;
  if (!seconds || !app) return;
  await sleep(seconds * 1000, signal);
  // The home screen (or anything without a launcher entry) has nothing to bring back.
  await launchApp(ctx, app, signal).catch((error: unknown) => {
    if (!(error instanceof ApexError && error.code === 'app_not_found')) throw error;
  });
}

function okPackageManager(result: { stdout: Buffer; stderr: Buffer }): ReturnType<typeof parsePackageManagerResult> {
  return parsePackageManagerResult(`${result.stdout.toString('utf8')}${result.stderr.toString('utf8')}`);
}
