export * from './hub/device-hub';
export * from './hub/backoff';
export * from './primitives';
