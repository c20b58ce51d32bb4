import type { DeviceHub } from '../hub/device-hub';
import type { AppList, HardwareButton, LaunchOptions } from '@apex/port';
import { runWith } from './abilities';
import { appIdForName, appsToSearch } from './app-names';
import { appsInstalledThroughHub } from './app-loop';

/** A bundle id (iOS) or package name (Android); the operations' schema says what a valid one looks like. */
export type AppId = string;

/**
 * Launches (or brings to the front) an app. With launch options it needs a driver that passes them on
 * (`launchAppWith`), else `unsupported_operation`: options are never dropped.
 */
export async function launchApp(hub: DeviceHub, deviceId: string, appId: AppId, options?: LaunchOptions): Promise<void> {
  if (options && hasLaunchOptions(options)) {
    await runWith(hub, deviceId, ['launchAppWith'], 'launch apps with arguments, environment or locale', (driver, signal) => driver.launchAppWith(appId, options, signal));
    return;
  }
  await hub.run(deviceId, 'launch an app', (driver, signal) => driver.launchApp(appId, signal));
}

function hasLaunchOptions(options: LaunchOptions): boolean {
  return options.arguments !== undefined || options.environment !== undefined || options.locale !== undefined;
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
 * running apps); `unsupported_operation` when the driver cannot list apps at all. The apps this hub installed
 * are named by their builds: added where the list is not complete, named where the device lists them nameless.
 */
export async function listApps(hub: DeviceHub, deviceId: string): Promise<AppList> {
  const listed = await runWith(hub, deviceId, ['listApps'], 'list its apps', (driver, signal) => driver.listApps(signal));
  const apps = [...listed.apps];
  for (const app of appsInstalledThroughHub(hub, deviceId)) {
    const at = apps.findIndex((known) => known.appId === app.appId);
    if (at < 0 && !listed.complete) apps.push(app);
    else if (at >= 0 && apps[at]?.name === undefined) apps[at] = { ...apps[at], name: app.name };
  }
  return { ...listed, apps };
}

/**
 * Launches the app with this name ("Settings", "notes"): looked up in the device's list where it has a
 * complete one, else in what it lists and Apple's system apps (iOS). No match: `app_not_found` naming the
 * closest names. Returns the app id launched.
 */
export async function launchAppNamed(hub: DeviceHub, deviceId: string, name: string, options?: LaunchOptions): Promise<AppId> {
  // listApps names what this hub installed; a device that cannot list apps still has those.
  const listed = hub.supports(deviceId, 'listApps') ? await listApps(hub, deviceId) : { apps: appsInstalledThroughHub(hub, deviceId), complete: false };
  const search = appsToSearch(hub.summary(deviceId).platform, listed);
  const appId = appIdForName(deviceId, name, search);
  await launchApp(hub, deviceId, appId, options);
  return appId;
}
