export * from './element-refs';
export * from './resolve';
