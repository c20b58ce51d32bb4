export * from './define-operation';
export * from './run-operation';
export * from './json-schema';
export * from './schemas';
export * from './operations';
export { describePixelMapping, MAX_SCREENSHOT_BYTES } from './operations/take-screenshot';
