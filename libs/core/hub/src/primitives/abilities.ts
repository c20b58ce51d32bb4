import { ApexError } from '@apex/errors';
import type { DeviceDriver } from '@apex/port';
import type { DeviceHub, OptionalAbility, RunOptions } from '../hub/device-hub';

/** The driver, known to have the abilities asked for. */
export type DriverWith<A extends OptionalAbility> = DeviceDriver & Required<Pick<DeviceDriver, A>>;

/** `unsupported_operation` naming the device and what it cannot do (`action` reads "cannot <action>"). */
export function assertSupports(hub: DeviceHub, deviceId: string, abilities: readonly OptionalAbility[], action: string): void {
  if (abilities.every((ability) => hub.supports(deviceId, ability))) return;
  throw new ApexError('unsupported_operation', `Device ${deviceId} cannot ${action}.`, {
    hint: 'This device does not offer it; use another device or reach the same screen with taps and swipes.',
  });
}

/**
 * Runs an action that needs optional abilities of the port on the device's queue; a driver without one of
 * them is `unsupported_operation` before anything is queued.
 */
export function runWith<A extends OptionalAbility, T>(
  hub: DeviceHub,
  deviceId: string,
  abilities: readonly A[],
  action: string,
  fn: (driver: DriverWith<A>, signal: AbortSignal) => Promise<T>,
  options?: RunOptions,
): Promise<T> {
  try {
    assertSupports(hub, deviceId, abilities, action);
  } catch (error) {
    return Promise.reject(error);
  }
  return hub.run(deviceId, action, (driver, signal) => fn(driver as DriverWith<A>, signal), options);
}
