export { createRuntime, EMBEDDED_ANDROID_ID, EMBEDDED_ANDROID_NAME, EMBEDDED_DEVICE_ID, EMBEDDED_DEVICE_NAME } from './runtime';
export type { EmbeddedAndroid, Runtime, RuntimeDevice, RuntimeOptions } from './runtime';
export { loadConfig, parseConfig, ApexConfigSchema, DeviceConfigSchema, WdaDeviceConfigSchema, AppiumDeviceConfigSchema } from './config';
export type { ApexConfig, DeviceConfig, GridConfig, WdaDeviceConfig, AppiumDeviceConfig } from './config';
export { GridDiscovery, deviceIdOf, type GridDiscoveryOptions } from './grid-discovery';
export { claimDeviceLock, lockFileFor, openDeviceLease, releaseDeviceLock } from './device-lock';
export type { DeviceLease, DeviceLeaseOptions, LockClaim, LockRecord } from './device-lock';
export { createLogger } from './logger';
export type { Logger } from './logger';
