export * from './types';
export { Perception } from './perception';
