export { normalizeAndroidSource, parseBounds } from './source';
export { androidRoleOf, simpleClassName } from './roles';
export { ANDROID_PERMISSIONS, androidPermissionNames } from './permissions';
export { galleryPath, launchExtras, MEDIA_SCAN_ACTION } from './app-loop';
