import type { DeviceHub, DeviceSummary } from '../hub/device-hub';
import type { DriverStatus } from '@apex/port';

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
