export { AdbDriver, adbKeyDir, createAdbDriver, DEFAULT_ADB_SERVER, type AdbDriverOptions } from './adb-driver';
export type { AdbServerAddress } from './adb-server/adb-server-client';
