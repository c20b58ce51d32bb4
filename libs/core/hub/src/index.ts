export * from './hub/device-hub';
export * from './hub/backoff';
export { TIMEOUT_DEFAULTS } from '@apex/port';
export * from './primitives';
