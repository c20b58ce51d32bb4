export * from './geometry';
export * from './ui-node';
export * from './port';
export * from './timeouts';
export * from './text';
