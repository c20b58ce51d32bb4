export * from './define-operation';
export * from './run-operation';
export * from './json-schema';
export * from './limits';
export * from './schemas';
export * from './screenshot-encoding';
export * from './screenshot-reuse';
export * from './operations';
