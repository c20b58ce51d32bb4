export * from './codes';
export * from './apex-error';
export * from './public-error';
export * from './zod-issues';
export * from './echo';
