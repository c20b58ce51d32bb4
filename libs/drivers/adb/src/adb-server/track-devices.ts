import { TIMEOUT_DEFAULTS } from '@apex/port';
import { AdbServerClient, type AdbServerAddress } from './adb-server-client';
import { parseDeviceList, type AdbDeviceEntry } from './device-list';

/**
 * The adb server's device list now and whenever a device is added, removed or becomes ready. adb 1.0.41 does
 * not always announce a ready TCP device going offline on this stream: ask `listAdbDevices` (or probe the
 * device) for that.
 */
export function trackAdbDevices(server: AdbServerAddress, signal: AbortSignal): AsyncGenerator<AdbDeviceEntry[]> {
  return new AdbServerClient(server, TIMEOUT_DEFAULTS.connectMs).trackDevices(signal);
}

/** The adb server's device list now (`host:devices-l`). */
export async function listAdbDevices(server: AdbServerAddress, signal: AbortSignal): Promise<AdbDeviceEntry[]> {
  return parseDeviceList(await new AdbServerClient(server, TIMEOUT_DEFAULTS.connectMs).hostQuery('host:devices-l', signal));
}
