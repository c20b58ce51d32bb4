import { ApexError } from '@apex/errors';
import type { DeviceHub } from '../hub/device-hub';
import type { AppList, HardwareButton } from '@apex/port';

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
  if (!hub.supports(deviceId, 'listApps')) {
    throw new ApexError('unsupported_operation', `Device ${deviceId} cannot list its apps.`, {
      hint: 'Launch an app by its id instead.',
    });
  }
  return hub.run(deviceId, 'list apps', async (driver, signal) => (driver.listApps ? driver.listApps(signal) : { apps: [], complete: false }));
}
