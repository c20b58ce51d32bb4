export { createRuntime, EMBEDDED_DEVICE_ID, EMBEDDED_DEVICE_NAME } from './runtime';
export type { Runtime, RuntimeDevice, RuntimeOptions } from './runtime';
export { loadConfig, parseConfig, ApexConfigSchema, DeviceConfigSchema, WdaDeviceConfigSchema } from './config';
export type { ApexConfig, DeviceConfig, WdaDeviceConfig } from './config';
export { acquireDeviceLock, lockFileFor } from './device-lock';
export type { DeviceLock, LockOwner } from './device-lock';
export { createLogger } from './logger';
export type { Logger } from './logger';
