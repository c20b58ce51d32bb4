import type { DeviceHub, DeviceSummary } from '../hub/device-hub';
import type { AppRef, DriverStatus } from '@apex/port';
import { runWith } from './abilities';

/** A device's summary and what its driver knows about it now. `deviceName` is the name the phone gives itself. */
export interface DeviceStatus extends DeviceSummary, Omit<DriverStatus, 'platform' | 'name'> {
  deviceName?: string;
}

export function listDevices(hub: DeviceHub): DeviceSummary[] {
  return hub.list();
}

export async function deviceStatus(hub: DeviceHub, deviceId: string): Promise<DeviceStatus> {
  const status = await hub.run(deviceId, 'read the device status', (driver, signal) => driver.status(signal));
  hub.noteScreen(deviceId, status.screen);
  const { platform: _platform, name: deviceName, ...rest } = status;
  const result: DeviceStatus = { ...hub.summary(deviceId), ...rest };
  if (deviceName !== undefined) result.deviceName = deviceName;
  return result;
}

/**
 * The app in front: one cheap read where the driver has one, else from the whole status (several requests on
 * some devices; its screen geometry is kept as `deviceStatus` keeps it).
 */
export async function foregroundApp(hub: DeviceHub, deviceId: string): Promise<AppRef | undefined> {
  if (hub.supports(deviceId, 'foregroundApp')) {
    return runWith(hub, deviceId, ['foregroundApp'], 'read the app in front', (driver, signal) => driver.foregroundApp(signal));
  }
  return (await deviceStatus(hub, deviceId)).foregroundApp;
}
