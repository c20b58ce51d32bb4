import type { DeviceDriver } from '@apex/port';

/**
 * One platform's mapping of the port onto the automation server's commands: the port without what the
 * driver itself owns (its platform and closing), with the probe required. Units are points (dp on Android).
 */
export type PlatformCommands = Omit<DeviceDriver, 'platform' | 'close' | 'ping'> & {
  /** Cheap round trip to the device itself (not only to the server). */
  ping(signal: AbortSignal): Promise<void>;
};
