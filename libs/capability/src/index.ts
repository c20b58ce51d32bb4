export * from './geometry';
export * from './ui-node';
export * from './port';
export * from './hub/device-hub';
export * from './hub/backoff';
export * from './primitives';
