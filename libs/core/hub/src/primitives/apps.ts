import { ApexError } from '@apex/errors';
import type { DeviceHub } from '../hub/device-hub';
import type { HardwareButton, InstalledApp } from '@apex/port';
import { AppIdSchema, HardwareButtonSchema } from './schemas';
import { parseInput } from './validate';

export async function launchApp(hub: DeviceHub, deviceId: string | undefined, appId: string): Promise<void> {
  const parsed = parseInput(AppIdSchema, appId, 'app id');
  const id = hub.resolve(deviceId);
  await hub.run(id, 'launch an app', (driver, signal) => driver.launchApp(parsed, signal));
}

/** Resolves to false when the app was not running. */
export async function terminateApp(hub: DeviceHub, deviceId: string | undefined, appId: string): Promise<boolean> {
  const parsed = parseInput(AppIdSchema, appId, 'app id');
  const id = hub.resolve(deviceId);
  return hub.run(id, 'terminate an app', (driver, signal) => driver.terminateApp(parsed, signal));
}

export async function pressButton(hub: DeviceHub, deviceId: string | undefined, button: HardwareButton): Promise<void> {
  const parsed = parseInput(HardwareButtonSchema, button, 'button');
  const id = hub.resolve(deviceId);
  await hub.run(id, 'press a button', (driver, signal) => driver.pressButton(parsed, signal));
}

/**
 * The apps the driver can list. What that means is the driver's to say (an iPhone driver may only see
 * running apps); `unsupported_operation` when the driver cannot list apps at all.
 */
export async function listApps(hub: DeviceHub, deviceId?: string): Promise<InstalledApp[]> {
  const id = hub.resolve(deviceId);
  if (!hub.supports(id, 'listApps')) {
    throw new ApexError('unsupported_operation', `Device ${id} cannot list its apps.`, {
      hint: 'Launch an app by its id instead.',
    });
  }
  return hub.run(id, 'list apps', async (driver, signal) => (driver.listApps ? driver.listApps(signal) : []));
}
