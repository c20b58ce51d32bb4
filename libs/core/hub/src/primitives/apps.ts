import type { DeviceHub } from '../hub/device-hub';
import type { AppList, HardwareButton } from '@apex/port';
import { runWith } from './abilities';
import { appIdForName, appsToSearch } from './app-names';

/** A bundle id (iOS) or package name (Android); the operations' schema says what a valid one looks like. */
export type AppId = string;

export async function launchApp(hub: DeviceHub, deviceId: string, appId: AppId): Promise<void> {
  await hub.run(deviceId, 'launch an app', (driver, signal) => driver.launchApp(appId, signal));
}

/** Resolves to false when the app was not running. */
export async function terminateApp(hub: DeviceHub, deviceId: string, appId: AppId): Promise<boolean> {
  return hub.run(deviceId, 'terminate an app', (driver, signal) => driver.terminateApp(appId, signal));
}

export async function pressButton(hub: DeviceHub, deviceId: string, button: HardwareButton): Promise<void> {
  await hub.run(deviceId, 'press a button', (driver, signal) => driver.pressButton(button, signal));
}

/**
 * The apps the driver can list. What that means is the driver's to say (an iPhone driver may only see
 * running apps); `unsupported_operation` when the driver cannot list apps at all.
 */
export async function listApps(hub: DeviceHub, deviceId: string): Promise<AppList> {
  return runWith(hub, deviceId, ['listApps'], 'list its apps', (driver, signal) => driver.listApps(signal));
}

/**
 * Launches the app with this name ("Settings", "notes"): looked up in the device's list where it has a
 * complete one, else in what it lists and Apple's system apps (iOS). No match: `app_not_found` naming the
 * closest names. Returns the app id launched.
 */
export async function launchAppNamed(hub: DeviceHub, deviceId: string, name: string): Promise<AppId> {
  const listed = hub.supports(deviceId, 'listApps') ? await listApps(hub, deviceId) : undefined;
  const appId = appIdForName(deviceId, name, appsToSearch(hub.summary(deviceId).platform, listed));
  await launchApp(hub, deviceId, appId);
  return appId;
}
