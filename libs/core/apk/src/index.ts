export { ApkError } from './apk-error';
export { readApkInfo, type ApkInfo, type ApkLimits } from './apk-info';
export { bufferSource, type ByteSource } from '@apex/zip';
