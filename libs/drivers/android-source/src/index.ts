export { normalizeAndroidSource, parseBounds } from './source';
export { androidRoleOf, simpleClassName } from './roles';
