export * from './hub/device-hub';
export * from './hub/backoff';
export * from './hub/device-access';
export * from './lease';
export * from './primitives';
