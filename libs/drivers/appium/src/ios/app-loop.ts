import { ApexError, echoName } from '@apex/errors';
import type { AppBuild, AppState, BiometricAction, GeoLocation, LaunchOptions, MediaFile, Permission, PermissionState, PushNotification } from '@apex/port';
import { appStateOf, launchFailure, localeArguments } from '@apex/ios-source';
import { withRouteMeaning } from '@apex/webdriver-http';
import { buildPathForServer, mediaPayload, onlyOn } from '../app-builds';
import { deviceInfo, mobile, optional, type AppiumContext } from '../context';

/**
 * The developer's loop through the XCUITest driver's `mobile:` commands that the agent on the phone serves
 * (`lib/commands/app-management.js`, `geolocation.js`): they work wherever the server reaches the agent,
 * Linux included. The rest (`app-management.ts`, `permissions.ts`, `biometric.ts`, `notifications.ts`,
 * `file-movement.ts` of appium-xcuitest-driver 12.7) runs the server's own host tools for a simulator: the server
 * refuses them on a real iPhone ("… can only be performed on Simulator"), which Apex says as unsupported.
 */

/** `mobile: queryAppState` → `/wda/apps/state`. */
export async function appState(ctx: AppiumContext, appId: string, signal: AbortSignal): Promise<AppState> {
  return appStateOf(await mobile(ctx, 'queryAppState', { bundleId: appId }, { idempotent: true, signal }));
}

/** `mobile: backgroundApp`: without seconds the home screen (the app stays behind); with, `/wda/deactivateApp`. */
export async function backgroundApp(ctx: AppiumContext, seconds: number | undefined, signal: AbortSignal): Promise<void> {
  await mobile(ctx, 'backgroundApp', seconds === undefined ? {} : { seconds }, { signal });
}

/** `mobile: setSimulatedLocation` / `resetSimulatedLocation` → `/wda/simulatedLocation` (iOS 16.4+). */
export async function setLocation(ctx: AppiumContext, location: GeoLocation | undefined, signal: AbortSignal): Promise<void> {
  if (location === undefined) {
    await mobile(ctx, 'resetSimulatedLocation', undefined, { signal });
    return;
  }
  if (location.altitude !== undefined) {
    throw new ApexError('unsupported_operation', `Device ${ctx.deviceId} cannot simulate an altitude.`, { hint: 'Leave altitude out: latitude and longitude are simulated.' });
  }
  await mobile(ctx, 'setSimulatedLocation', { latitude: location.latitude, longitude: location.longitude }, { signal });
}

/** `mobile: terminateApp`, then `mobile: launchApp {bundleId, arguments, environment}` (ignored by a running app). */
export async function launchAppWith(ctx: AppiumContext, appId: string, options: LaunchOptions, signal: AbortSignal): Promise<void> {
  const args = [...(options.arguments ?? []), ...(options.locale ? localeArguments(options.locale) : [])];
  await mobile(ctx, 'terminateApp', { bundleId: appId }, { signal }).catch(() => undefined);
  await withRouteMeaning(
    () => mobile(ctx, 'launchApp', { bundleId: appId, arguments: args, environment: options.environment ?? {} }, { signal }),
    (e) => launchFailure(e, ctx.deviceId, appId),
  );
}

/** The server's words for a command it runs for simulators only (helpers/guards.ts, `mobileClearApp`). */
const SIMULATOR_ONLY = /can only be performed on Simulator|only supported on simulators/i;
const onSimulator = <T>(ctx: AppiumContext, what: string, call: () => Promise<T>) => onlyOn(ctx, what, SIMULATOR_ONLY, 'an iOS simulator', call);

/**
 * `mobile: isAppInstalled`; undefined when the server cannot tell (for a real iPhone it asks the phone's install
 * service through usbmuxd on its own computer, which a server on Linux lacks): the command itself then decides.
 */
async function isInstalled(ctx: AppiumContext, appId: string, signal: AbortSignal): Promise<boolean | undefined> {
  const answer = await optional(() => mobile(ctx, 'isAppInstalled', { bundleId: appId }, { idempotent: true, signal }));
  return typeof answer === 'boolean' ? answer : undefined;
}

function notInstalled(ctx: AppiumContext, appId: string): ApexError {
  return new ApexError('app_not_found', `Device ${ctx.deviceId} has no app "${echoName(appId)}" installed.`, {
    hint: 'Check the bundle id (list_apps shows the running ones), e.g. com.example.myapp.',
  });
}

/** `mobile: installApp {app}`: a path the server opens on its own computer, so a local server only. */
export async function installApp(ctx: AppiumContext, build: AppBuild, signal: AbortSignal): Promise<{ replaced: boolean }> {
  if (build.kind === 'apk') {
    throw new ApexError('invalid_argument', `Device ${ctx.deviceId} is an iPhone: it installs .app, .ipa or .zip builds, not "${echoName(build.name)}" (an Android build).`, {
      hint: 'Build the iOS variant of the app and install that.',
    });
  }
  const app = buildPathForServer(ctx, build);
  const replaced = (await isInstalled(ctx, build.appId, signal)) === true;
  await mobile(ctx, 'installApp', { app }, { signal });
  return { replaced };
}

/** `mobile: removeApp {bundleId}`, which answers false (not an error) when the phone refused. */
export async function uninstallApp(ctx: AppiumContext, appId: string, signal: AbortSignal): Promise<void> {
  if ((await isInstalled(ctx, appId, signal)) === false) throw notInstalled(ctx, appId);
  if (appId.startsWith('com.apple.')) {
    throw new ApexError('unsupported_operation', `Device ${ctx.deviceId} cannot uninstall "${echoName(appId)}": it is a system app that came with the phone.`, {
      hint: 'Only apps installed by the user can be removed; reset_app clears an app’s data instead.',
    });
  }
  if ((await mobile(ctx, 'removeApp', { bundleId: appId }, { signal })) !== true) {
    throw new ApexError('device_error', `Device ${ctx.deviceId} did not uninstall "${echoName(appId)}".`, { hint: 'Retry; if it keeps happening, remove the app on the phone.' });
  }
}

/** `mobile: clearApp` (the data container, simulators only), then every permission back to "not asked". */
export async function resetApp(ctx: AppiumContext, appId: string, signal: AbortSignal): Promise<void> {
  if ((await isInstalled(ctx, appId, signal)) === false) throw notInstalled(ctx, appId);
  await onSimulator(ctx, 'reset an app', async () => {
    await mobile(ctx, 'clearApp', { bundleId: appId }, { signal });
    await mobile(ctx, 'setPermission', { bundleId: appId, access: { all: 'unset' } }, { signal });
  });
}

/**
 * `mobile: setPermission {bundleId, access: {SERVICE: yes|no|unset}}`: the service names of the server's
 * documentation (execute-methods.md), plus `camera` and `notifications`, which its permission tool
 * (AppleSimulatorUtils, which the server needs on its computer for every service but location) also takes.
 */
const IOS_SERVICES: Record<Permission, string> = {
  location: 'location',
  locationAlways: 'location-always',
  camera: 'camera',
  microphone: 'microphone',
  photos: 'photos',
  contacts: 'contacts',
  calendar: 'calendar',
  reminders: 'reminders',
  notifications: 'notifications',
  motion: 'motion',
};
const ACCESS: Record<PermissionState, string> = { granted: 'yes', denied: 'no', unset: 'unset' };

export async function setPermission(ctx: AppiumContext, appId: string, permission: Permission, state: PermissionState, signal: AbortSignal): Promise<void> {
  if ((await isInstalled(ctx, appId, signal)) === false) throw notInstalled(ctx, appId);
  await onSimulator(ctx, `set the ${permission} permission`, () => mobile(ctx, 'setPermission', { bundleId: appId, access: { [IOS_SERVICES[permission]]: ACCESS[state] } }, { signal }));
}

/** Touch ID phones: the SE family and the iPhone 8 and older; every other iPhone since the X has Face ID. */
export function biometricKind(deviceName: unknown): 'touchId' | 'faceId' {
  return typeof deviceName === 'string' && /iPhone (SE|[5-8](\b|s| Plus))/i.test(deviceName) ? 'touchId' : 'faceId';
}

/** `mobile: enrollBiometric {isEnabled}` / `mobile: sendBiometricMatch {type, match}` (simulators only). */
export async function biometric(ctx: AppiumContext, action: BiometricAction, signal: AbortSignal): Promise<void> {
  await deviceInfo(ctx, signal); // the session's capabilities (its device name) are known once it exists
  const type = biometricKind(ctx.session.capabilities.deviceName);
  await onSimulator(ctx, 'simulate a biometric', () =>
    action === 'enroll' || action === 'unenroll'
      ? mobile(ctx, 'enrollBiometric', { isEnabled: action === 'enroll' }, { signal })
      : mobile(ctx, 'sendBiometricMatch', { type, match: action === 'match' }, { signal }),
  );
}

/** `mobile: pushNotification {bundleId, payload}` (simulators only): an APNs payload with the alert in `aps`. */
export async function pushNotification(ctx: AppiumContext, notification: PushNotification, signal: AbortSignal): Promise<void> {
  const payload = { ...(notification.payload ?? {}), aps: { alert: { title: notification.title, body: notification.body } } };
  await onSimulator(ctx, 'deliver a notification', () => mobile(ctx, 'pushNotification', { bundleId: notification.appId, payload }, { signal }));
}

/**
 * `mobile: pushFile {remotePath: NAME, payload}`: on a simulator a path outside any app container goes to the
 * photo library (`simctl addmedia`, file-movement.ts). On a real iPhone the same command writes a plain file
 * instead, so it is sent only when the agent says it runs on a simulator (`isSimulator` of its device info).
 */
export async function addMedia(ctx: AppiumContext, file: MediaFile, signal: AbortSignal): Promise<void> {
  if ((await deviceInfo(ctx, signal))?.isSimulator !== true) {
    throw new ApexError('unsupported_operation', `Device ${ctx.deviceId} cannot add a ${file.kind} to its photo library: that works on an iOS simulator only, and this device is not known to be one.`, {
      hint: 'Use an iOS simulator for this step, or add the photo on the phone.',
    });
  }
  const { name, payload } = await mediaPayload(ctx, file);
  await mobile(ctx, 'pushFile', { remotePath: name, payload }, { signal });
}
