export { bufferSource, declaredSize, fileSource, MAX_CENTRAL_DIRECTORY_BYTES, MAX_ZIP_ENTRIES, readZipEntry, ZipError, zipEntries, type ByteSource, type ZipEntry } from './zip-reader';
