export { createRuntime, EMBEDDED_DEVICE_ID, EMBEDDED_DEVICE_NAME } from './runtime';
export type { Runtime, RuntimeDevice, RuntimeOptions } from './runtime';
export { loadConfig, parseConfig, ApexConfigSchema, DeviceConfigSchema, WdaDeviceConfigSchema, AppiumDeviceConfigSchema } from './config';
export type { ApexConfig, DeviceConfig, GridConfig, WdaDeviceConfig, AppiumDeviceConfig } from './config';
export { GridDiscovery, deviceIdOf, type GridDiscoveryOptions } from './grid-discovery';
export { claimDeviceLock, fileLeaseBackend, lockFileFor, openDeviceLease, releaseDeviceLock, type DeviceLeaseBackend } from './device-lock';
export type { DeviceLease, DeviceLeaseOptions, LockClaim, LockRecord } from './device-lock';
export { createLogger } from './logger';
export type { Logger } from './logger';
