import { createReadStream } from 'node:fs';
import { androidPermissionNames, galleryPath, MEDIA_SCAN_ACTION } from '@apex/android-source';
import { ApexError, echoName } from '@apex/errors';
import type { GeoLocation, MediaFile, Permission, PermissionState, PushNotification } from '@apex/port';
import { pushFile, shell, shellEach, type AdbContext } from '../adb-context';
import { DeviceCommandFailure } from '../errors';
import { appNotFound, assertPackageName, installed } from './apps';

/*
 * The app's environment on Android: runtime permissions (`pm grant|revoke` and the USER_SET/USER_FIXED flags
 * that decide whether the app may ask again), a simulated position (a test location provider, Android 12+'s
 * `cmd location providers`, which the shell may feed once its MOCK_LOCATION app op is allowed), notifications
 * (`cmd notification post`, posted by the shell with a content intent that opens the app), and media (a push
 * to shared storage plus the media scanner's broadcast).
 */

/** What `pm grant` answers for a permission the app does not declare or this Android does not have: skipped. */
const NOT_APPLICABLE = /has not requested permission|Unknown permission|not a changeable permission type/;
const UNKNOWN_PACKAGE = /Unknown package/;
const FLAGS = ['user-set', 'user-fixed'];

/**
 * granted: `pm grant` each permission the app declares. denied: `pm revoke` and mark it decided by the user
 * (USER_SET|USER_FIXED), so the app's request is refused without a dialog, as after a second "Don't allow".
 * unset: `pm revoke` and clear those flags, so the app asks again.
 */
export async function setPermission(ctx: AdbContext, appId: string, permission: Permission, state: PermissionState, signal: AbortSignal): Promise<void> {
  assertPackageName(ctx, appId, appNotFound);
  if (permission === 'reminders') {
    throw new ApexError('unsupported_operation', `Device ${ctx.deviceId} has no reminders permission: Android keeps reminders in the calendar.`, { hint: 'Set the calendar permission instead.' });
  }
  const names = androidPermissionNames(permission, state === 'granted');
  const verb = state === 'granted' ? 'grant' : 'revoke';
  const changed = await shellEach(ctx, names.map((name) => ['pm', verb, appId, name]), signal);
  if (changed.some((r) => UNKNOWN_PACKAGE.test(r.output))) throw appNotFound(ctx, appId);
  const applied = names.filter((_, i) => changed[i].status === 0);
  const failed = changed.find((r) => r.status !== 0 && !NOT_APPLICABLE.test(r.output));
  if (failed) throw new DeviceCommandFailure(failed.status, failed.output);
  if (applied.length === 0) {
    throw new ApexError('invalid_argument', `The app "${echoName(appId)}" on device ${ctx.deviceId} does not ask for the ${permission} permission (its manifest does not declare it), so it cannot be ${state === 'granted' ? 'granted' : 'changed'}.`, {
      hint: 'Declare the permission in the app, or set one it declares.',
    });
  }
  if (state === 'granted') return;
  const flagVerb = state === 'denied' ? 'set-permission-flags' : 'clear-permission-flags';
  const flagged = await shellEach(ctx, applied.map((name) => ['pm', flagVerb, appId, name, ...FLAGS]), signal);
  const refused = flagged.find((r) => r.status !== 0);
  if (refused && /Unknown command/i.test(refused.output)) {
    throw new ApexError('unsupported_operation', `Device ${ctx.deviceId} took the permission back, but its Android version (older than 11) cannot mark it ${state === 'denied' ? 'as refused for good' : 'as never asked'}.`, {
      hint: 'Use a phone with Android 11 or newer for this; on older ones the app asks again on its next request.',
      cause: new DeviceCommandFailure(refused.status, refused.output),
    });
  }
  if (refused) throw new DeviceCommandFailure(refused.status, refused.output);
}

/** The test providers Apex feeds: apps listening to GPS or to the network provider both see the position. */
const PROVIDERS = ['gps', 'network'] as const;
const SHELL_PACKAGE = 'com.android.shell';

function locationUnsupported(ctx: AdbContext, output: string): ApexError {
  return new ApexError('unsupported_operation', `Device ${ctx.deviceId} cannot simulate a position: this needs Android 12 or newer (its location service has no test providers for the debugging shell).`, {
    hint: 'Use a phone or emulator with Android 12 or newer.',
    cause: new DeviceCommandFailure(1, output),
  });
}

/**
 * Allows the shell to mock locations (app op MOCK_LOCATION), turns location on, and feeds a test provider per
 * PROVIDERS; `undefined` removes them (the phone's own position comes back). Android's test providers carry no
 * altitude from the shell: a position with one is refused rather than silently flattened.
 */
export async function setLocation(ctx: AdbContext, location: GeoLocation | undefined, signal: AbortSignal): Promise<void> {
  if (location === undefined) {
    const removed = await shellEach(ctx, PROVIDERS.map((p) => ['cmd', 'location', 'providers', 'remove-test-provider', p]), signal);
    const odd = removed.find((r) => r.status !== 0 && !/doesn't exist|not exist|unknown provider/i.test(r.output));
    if (odd && /Unknown command|Can't find service|usage/i.test(odd.output)) throw locationUnsupported(ctx, odd.output);
    return;
  }
  if (location.altitude !== undefined) {
    throw new ApexError('unsupported_operation', `Device ${ctx.deviceId} can simulate a latitude and longitude but not an altitude: Android's simulated positions from the debugging shell carry none.`, {
      hint: 'Set the position without an altitude.',
    });
  }
  const at = `${location.latitude.toFixed(7)},${location.longitude.toFixed(7)}`;
  const steps: string[][] = [
    ['appops', 'set', SHELL_PACKAGE, 'android:mock_location', 'allow'],
    ['cmd', 'location', 'set-location-enabled', 'true'],
    ...PROVIDERS.flatMap((p) => [
      ['cmd', 'location', 'providers', 'add-test-provider', p],
      ['cmd', 'location', 'providers', 'set-test-provider-enabled', p, 'true'],
      ['cmd', 'location', 'providers', 'set-test-provider-location', p, '--location', at],
    ]),
  ];
  const results = await shellEach(ctx, steps, signal);
  const failed = results.findIndex((r, i) => r.status !== 0 && !(steps[i][3] === 'add-test-provider' && /already exists/i.test(r.output)));
  if (failed < 0) return;
  const { output, status } = results[failed];
  if (/Unknown command|Can't find service|usage:|Unknown operation/i.test(output) || (steps[failed][0] === 'cmd' && status === 20)) throw locationUnsupported(ctx, output);
  throw new DeviceCommandFailure(status, output);
}

/** One intent extra per payload key, typed as JSON types map onto `am`'s extra flags. */
function extras(payload: Record<string, unknown> | undefined): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(payload ?? {})) {
    if (typeof value === 'boolean') out.push('--ez', key, String(value));
    else if (typeof value === 'number' && Number.isInteger(value) && Math.abs(value) <= 0x7fffffff) out.push('--ei', key, String(value));
    else if (typeof value === 'number' && Number.isFinite(value)) out.push('--ef', key, String(value));
    else out.push('--es', key, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return out;
}

let notificationCount = 0;

/**
 * A notification with the title and body, whose tap opens the app (its launcher intent, with the payload as
 * extras). Android lets only the app's own server push to it; from the debugging shell a notification is posted
 * by the system shell on the app's behalf, so the shade names "Shell" as its sender.
 */
export async function pushNotification(ctx: AdbContext, n: PushNotification, signal: AbortSignal): Promise<void> {
  assertPackageName(ctx, n.appId, appNotFound);
  if (!(await installed(ctx, n.appId, signal))) throw appNotFound(ctx, n.appId);
  const tag = `apex-${Date.now().toString(36)}-${++notificationCount}`;
  const result = await shell(ctx, ['cmd', 'notification', 'post', '-t', n.title, '-c', 'activity', ...extras(n.payload), n.appId, tag, n.body], signal);
  const output = `${result.stdout.toString('utf8')}${result.stderr.toString('utf8')}`;
  // NotificationShellCmd reports its errors on stdout with status 0.
  if (result.exitCode !== 0 || !/^posting:/m.test(output)) throw new DeviceCommandFailure(result.exitCode, output);
}

/** A file name the phone's shared storage and a file:// URI both take unchanged. */
/** Pushes the file to Pictures (photos) or Movies (videos) on shared storage, then has the media scanner add it. */
export async function addMedia(ctx: AdbContext, file: MediaFile, signal: AbortSignal): Promise<void> {
  const remote = galleryPath(file);
  await pushFile(ctx, remote, 0o100644, () => createReadStream(file.path, { highWaterMark: 64 * 1024 }), signal);
  const result = await shell(ctx, ['am', 'broadcast', '-a', MEDIA_SCAN_ACTION, '-d', `file://${remote}`], signal);
  const output = result.stdout.toString('utf8');
  if (result.exitCode !== 0 || !/Broadcast completed/.test(output)) throw new DeviceCommandFailure(result.exitCode, `${output}${result.stderr.toString('utf8')}`);
}
