export * from './hub/device-hub';
export * from './hub/backoff';
export * from './hub/device-access';
export * from './hub/preparation';
export { callerSignal, onBehalfOf } from './hub/caller-scope';
export * from './lease';
export { TIMEOUT_DEFAULTS } from '@apex/port';
export * from './primitives';
export * from './refs';
