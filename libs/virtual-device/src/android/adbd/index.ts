export { startAdbd, ADBD_FEATURES } from './adbd';
export type { Adbd, AdbdOptions } from './adbd';
export { MemoryFiles, S_IFDIR, S_IFMT, S_IFREG } from './memory-files';
export type { MemoryFilesOptions } from './memory-files';
export type { AdbDeviceBackend, AdbIdentity, DeviceFiles, FileEntry, ShellHandler, ShellSession } from './device-backend';
export type { AdbdAuth } from './auth';
