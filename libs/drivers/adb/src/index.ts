export { AdbDriver, createAdbDriver, DEFAULT_ADB_SERVER, type AdbDriverOptions } from './adb-driver';
export type { AdbServerAddress } from './adb-server/adb-server-client';
export { listAdbDevices, trackAdbDevices } from './adb-server/track-devices';
export { parseDeviceList, type AdbDeviceEntry } from './adb-server/device-list';
