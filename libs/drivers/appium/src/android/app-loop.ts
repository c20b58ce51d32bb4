import { ApexError, echoName } from '@apex/errors';
import { androidPermissionNames, galleryPath, launchExtras, MEDIA_SCAN_ACTION } from '@apex/android-source';
import type { AppBuild, AppState, BiometricAction, GeoLocation, LaunchOptions, MediaFile, Permission, PermissionState } from '@apex/port';
import { WebDriverProtocolError } from '@apex/webdriver-http';
import { buildPathForServer, mediaPayload, onlyOn } from '../app-builds';
import { mobile, type AppiumContext } from '../context';

/*
 * The developer's loop through the UiAutomator2 driver's `mobile:` commands, which it takes from
 * appium-android-driver (`lib/execute-method-map.ts`; `commands/app-management.ts`, `permissions.ts`,
 * `geolocation.ts`, `intent.ts`, `file-actions.ts`, `device/emulator-actions.ts`). NOT RUN against a device
 * here (no Android server runs on this machine): the commands sent are checked against a recording server.
 * Left out, each with its reason below: a per-launch environment or locale, marking a permission refused for
 * good, enrolling a fingerprint, and posting a notification (it needs the server's shell access, off by default).
 */

/** `mobile: queryAppState` (ApplicationState): 0 not installed, 1 not running, 2-3 background, 4 foreground. */
export function androidAppState(code: unknown): AppState {
  switch (code) {
    case 0:
      return 'notInstalled';
    case 1:
      return 'notRunning';
    case 2:
    case 3:
      return 'background';
    case 4:
      return 'foreground';
    default:
      throw new ApexError('device_error', `The automation server answered an unknown app state (${echoName(String(code))}).`);
  }
}

export async function appState(ctx: AppiumContext, appId: string, signal: AbortSignal): Promise<AppState> {
  return androidAppState(await mobile(ctx, 'queryAppState', { appId }, { idempotent: true, signal }));
}

/** `mobile: backgroundApp {seconds}`: Home, and the app back after that long; without seconds it stays behind. */
export async function backgroundApp(ctx: AppiumContext, seconds: number | undefined, signal: AbortSignal): Promise<void> {
  await mobile(ctx, 'backgroundApp', { seconds: seconds ?? -1 }, { signal });
}

/** `mobile: setGeolocation {latitude, longitude, altitude}`; `mobile: resetGeolocation` (real phones only). */
export async function setLocation(ctx: AppiumContext, location: GeoLocation | undefined, signal: AbortSignal): Promise<void> {
  if (location === undefined) {
    await onlyOn(ctx, 'stop simulating a position', /does not work on emulators/i, 'a real Android phone', () => mobile(ctx, 'resetGeolocation', undefined, { signal }));
    return;
  }
  await mobile(ctx, 'setGeolocation', { latitude: location.latitude, longitude: location.longitude, ...(location.altitude === undefined ? {} : { altitude: location.altitude }) }, { signal });
}

async function isInstalled(ctx: AppiumContext, appId: string, signal: AbortSignal): Promise<boolean> {
  return (await mobile(ctx, 'isAppInstalled', { appId }, { idempotent: true, signal })) === true;
}

function notInstalled(ctx: AppiumContext, appId: string, cause?: unknown): ApexError {
  return new ApexError('app_not_found', `Device ${ctx.deviceId} has no app "${echoName(appId)}" installed.`, {
    hint: 'Check the package name, e.g. com.example.myapp.',
    cause,
  });
}

/**
 * `mobile: startActivity {package, action MAIN, categories LAUNCHER, extras, stop, wait}`: the package's launcher
 * activity afresh (`stop`: a running process ends first, so the new one gets the extras).
 */
export async function launchAppWith(ctx: AppiumContext, appId: string, options: LaunchOptions, signal: AbortSignal): Promise<void> {
  const extras = launchExtras(ctx.deviceId, options);
  const intent = {
    package: appId,
    action: 'android.intent.action.MAIN',
    categories: ['android.intent.category.LAUNCHER'],
    extras: extras.map(([key, value]) => ['s', key, value]),
    stop: true,
    wait: true,
  };
  let output: unknown;
  try {
    output = await mobile(ctx, 'startActivity', intent, { signal });
  } catch (error) {
    if (error instanceof WebDriverProtocolError && !(await isInstalled(ctx, appId, signal))) throw notInstalled(ctx, appId, error);
    throw error;
  }
  if (typeof output === 'string' && /^Error/m.test(output)) {
    if (!(await isInstalled(ctx, appId, signal))) throw notInstalled(ctx, appId);
    throw new ApexError('device_error', `Device ${ctx.deviceId} did not start "${echoName(appId)}".`, { hint: 'Check that the app has a launcher screen, then retry.' });
  }
}

/** `mobile: installApp {appPath}`: a path the server opens on its own computer, so a local server only. */
export async function installApp(ctx: AppiumContext, build: AppBuild, signal: AbortSignal): Promise<{ replaced: boolean }> {
  if (build.kind !== 'apk') {
    throw new ApexError('invalid_argument', `Device ${ctx.deviceId} is an Android phone: it installs .apk builds, not "${echoName(build.name)}" (an iOS build).`, {
      hint: 'Build the Android variant of the app (an .apk) and install that.',
    });
  }
  const appPath = buildPathForServer(ctx, build);
  const replaced = await isInstalled(ctx, build.appId, signal);
  // allowTestPackages: debug builds marked test-only install too (`-t`), as the direct driver does.
  await mobile(ctx, 'installApp', { appPath, allowTestPackages: true, replace: true }, { signal });
  return { replaced };
}

/** `mobile: removeApp {appId}`, which answers false (not an error) when the phone refused. */
export async function uninstallApp(ctx: AppiumContext, appId: string, signal: AbortSignal): Promise<void> {
  if (!(await isInstalled(ctx, appId, signal))) throw notInstalled(ctx, appId);
  if ((await mobile(ctx, 'removeApp', { appId }, { signal })) !== true) {
    throw new ApexError('unsupported_operation', `Device ${ctx.deviceId} refused to uninstall "${echoName(appId)}": a phone keeps the apps it came with.`, {
      hint: 'Only apps installed by the user can be removed; reset_app clears an app’s data instead.',
    });
  }
}

/** `mobile: clearApp {appId}` (`pm clear`): the app stops and loses its data and runtime permissions. */
export async function resetApp(ctx: AppiumContext, appId: string, signal: AbortSignal): Promise<void> {
  if (!(await isInstalled(ctx, appId, signal))) throw notInstalled(ctx, appId);
  await mobile(ctx, 'clearApp', { appId }, { signal });
}

/**
 * `mobile: changePermissions {permissions, appPackage, action: grant|revoke}` for the permissions the app asks for
 * (`mobile: getPermissions {type: requested}`): granted → grant; unset → revoke (the app asks again, unless its
 * user refused it for good before). `denied` is refused: marking a permission refused for good needs the
 * permission flags, which only the server's shell access can set.
 */
export async function setPermission(ctx: AppiumContext, appId: string, permission: Permission, state: PermissionState, signal: AbortSignal): Promise<void> {
  if (permission === 'reminders') {
    throw new ApexError('unsupported_operation', `Device ${ctx.deviceId} has no reminders permission: Android keeps reminders in the calendar.`, { hint: 'Set the calendar permission instead.' });
  }
  if (state === 'denied') {
    throw new ApexError('unsupported_operation', `Device ${ctx.deviceId} cannot mark the ${permission} permission as refused through its automation server: it can grant a permission or take it back (the app then asks again), not refuse it for good.`, {
      hint: 'Use state "unset" to take the permission back, or answer the app’s permission dialog with Don’t allow.',
    });
  }
  if (!(await isInstalled(ctx, appId, signal))) throw notInstalled(ctx, appId);
  const requested = await mobile(ctx, 'getPermissions', { type: 'requested', appPackage: appId }, { idempotent: true, signal });
  const asked = new Set(Array.isArray(requested) ? requested.filter((p): p is string => typeof p === 'string') : []);
  const permissions = androidPermissionNames(permission, state === 'granted').filter((name) => asked.has(name));
  if (permissions.length === 0) {
    throw new ApexError('invalid_argument', `The app "${echoName(appId)}" on device ${ctx.deviceId} does not ask for the ${permission} permission (its manifest does not declare it), so it cannot be ${state === 'granted' ? 'granted' : 'changed'}.`, {
      hint: 'Declare the permission in the app, or set one it declares.',
    });
  }
  await mobile(ctx, 'changePermissions', { permissions, appPackage: appId, action: state === 'granted' ? 'grant' : 'revoke' }, { signal });
}

/**
 * `mobile: fingerprint {fingerprintId: 1}` (emulators only): a touch of the first finger, the one the emulator's
 * Settings enrolls first. Enrolling and a failing touch are refused: no command enrolls a finger, and which ids
 * are not enrolled depends on the emulator's Settings.
 */
export async function biometric(ctx: AppiumContext, action: BiometricAction, signal: AbortSignal): Promise<void> {
  if (action !== 'match') {
    throw new ApexError('unsupported_operation', `Device ${ctx.deviceId} cannot ${action === 'fail' ? 'simulate an unrecognised fingerprint' : `${action} a fingerprint`}: Android’s automation server can only touch the sensor with an enrolled finger, on an emulator.`, {
      hint: 'Enroll a fingerprint in the emulator’s Settings, then use action "match".',
    });
  }
  await onlyOn(ctx, 'simulate a fingerprint', /only available for emulators/i, 'an Android emulator', () => mobile(ctx, 'fingerprint', { fingerprintId: 1 }, { signal }));
}

/** `mobile: pushFile` to shared storage (Pictures / Movies), then the media scanner's broadcast (`mobile: broadcast`). */
export async function addMedia(ctx: AppiumContext, file: MediaFile, signal: AbortSignal): Promise<void> {
  const remotePath = galleryPath(file);
  const { payload } = await mediaPayload(ctx, file);
  await mobile(ctx, 'pushFile', { remotePath, payload }, { signal });
  await mobile(ctx, 'broadcast', { action: MEDIA_SCAN_ACTION, uri: `file://${remotePath}` }, { signal });
}


/** Refused: posting a notification needs `mobile: shell` (`cmd notification post`), which the server allows only when started with shell access. */
export function pushNotification(ctx: AppiumContext): Promise<never> {
  return Promise.reject(
    new ApexError('unsupported_operation', `Device ${ctx.deviceId} cannot post a notification through its automation server: that needs the server’s shell access, which is off unless the server is started with it.`, {
      hint: 'Connect the phone to Apex directly (its Android debugging connection) to post notifications.',
    }),
  );
}
