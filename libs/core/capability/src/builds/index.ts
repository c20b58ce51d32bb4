export { readBuild, readBuildFile, readMediaFile } from './read-build';
export { resolveInsideRoots } from './host-paths';
export { parsePlist, type PlistValue } from './plist';
export { MAX_INFO_PLIST_BYTES, MAX_ARCHIVE_UNPACKED_BYTES } from './ios-bundle';
