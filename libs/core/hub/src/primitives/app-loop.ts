import type { AppBuild, AppRef, AppState, BiometricAction, GeoLocation, MediaFile, Permission, PermissionState, PushNotification } from '@apex/port';
import type { DeviceHub } from '../hub/device-hub';
import { runWith } from './abilities';
import type { AppId } from './apps';

/**
 * The developer's loop on the device's queue: install the app under test, reset it, grant it, place the phone,
 * drive its environment. Each needs an optional ability of the port; a driver without it answers
 * `unsupported_operation` before anything is queued. Installing and resetting copy a whole build: they get the
 * device's slow-action limit.
 */

/** The apps this hub installed on the device (id and name), for name lookups. */
export function appsInstalledThroughHub(hub: DeviceHub, deviceId: string): AppRef[] {
  return [...hub.installedApps(deviceId)].map(([appId, name]) => ({ appId, name }));
}

export async function installApp(hub: DeviceHub, deviceId: string, build: AppBuild): Promise<{ replaced: boolean }> {
  const result = await runWith(hub, deviceId, ['installApp'], 'install apps', (driver, signal) => driver.installApp(build, signal), { slow: true });
  hub.installedApps(deviceId).set(build.appId, build.name);
  return result;
}

export async function uninstallApp(hub: DeviceHub, deviceId: string, appId: AppId): Promise<void> {
  await runWith(hub, deviceId, ['uninstallApp'], 'uninstall apps', (driver, signal) => driver.uninstallApp(appId, signal), { slow: true });
  hub.installedApps(deviceId).delete(appId);
}

export async function resetApp(hub: DeviceHub, deviceId: string, appId: AppId): Promise<void> {
  await runWith(hub, deviceId, ['resetApp'], 'reset apps', (driver, signal) => driver.resetApp(appId, signal), { slow: true });
}

export async function appState(hub: DeviceHub, deviceId: string, appId: AppId): Promise<AppState> {
  return runWith(hub, deviceId, ['appState'], "tell an app's state", (driver, signal) => driver.appState(appId, signal));
}

/**
 * Sends the foreground app to the background, and with `seconds` brings it back after that long: the wait is
 * part of the action, so its limit is the wait plus one action's.
 */
export async function backgroundApp(hub: DeviceHub, deviceId: string, seconds: number | undefined): Promise<void> {
  await runWith(hub, deviceId, ['backgroundApp'], 'send apps to the background', (driver, signal) => driver.backgroundApp(seconds, signal), {
    extraMs: (seconds ?? 0) * 1_000,
  });
}

export async function setPermission(hub: DeviceHub, deviceId: string, appId: AppId, permission: Permission, state: PermissionState): Promise<void> {
  await runWith(hub, deviceId, ['setPermission'], 'set app permissions', (driver, signal) => driver.setPermission(appId, permission, state, signal));
}

/** `undefined` clears the simulated position. */
export async function setLocation(hub: DeviceHub, deviceId: string, location: GeoLocation | undefined): Promise<void> {
  await runWith(hub, deviceId, ['setLocation'], 'simulate a location', (driver, signal) => driver.setLocation(location, signal));
}

export async function biometric(hub: DeviceHub, deviceId: string, action: BiometricAction): Promise<void> {
  await runWith(hub, deviceId, ['biometric'], 'simulate Face ID, Touch ID or a fingerprint', (driver, signal) => driver.biometric(action, signal));
}

export async function pushNotification(hub: DeviceHub, deviceId: string, notification: PushNotification): Promise<void> {
  await runWith(hub, deviceId, ['pushNotification'], 'deliver notifications', (driver, signal) => driver.pushNotification(notification, signal));
}

export async function addMedia(hub: DeviceHub, deviceId: string, file: MediaFile): Promise<void> {
  await runWith(hub, deviceId, ['addMedia'], 'add photos or videos', (driver, signal) => driver.addMedia(file, signal), { slow: true });
}
