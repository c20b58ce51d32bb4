export * from './server';
export * from './stdio';
export * from './http';
export * from './results';
export * from './tool-list';
export * from './toolset-tools';
export * from './logger';
export * from './http-server';
