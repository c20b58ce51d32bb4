import type { AdbDeviceBackend, DeviceFiles } from './adbd/device-backend';
import { AndroidPhone, type AndroidPhoneOptions } from './android-phone';
import { MemoryFiles } from './adbd/memory-files';
import { createAndroidShell } from './shell/shell';

export interface VirtualAndroidOptions extends AndroidPhoneOptions {
  /** The device's files (`sync:` and the shell share them); default a small in-memory tree. */
  files?: DeviceFiles;
}

export interface VirtualAndroid {
  /** What the adbd serves: `startAdbd({ backend })`. */
  readonly backend: AdbDeviceBackend;
  /** The phone itself, for in-process use and tests. */
  readonly phone: AndroidPhone;
}

/** A virtual Android 14 phone and the adbd backend in front of it (identity, shell, files). */
export function createVirtualAndroid(options: VirtualAndroidOptions = {}): VirtualAndroid {
  const { files: given, ...phoneOptions } = options;
  const phone = new AndroidPhone(phoneOptions);
  const files = given ?? phoneFiles();
  const { product, model, device } = phone.profile;
  const backend: AdbDeviceBackend = {
    identity: { product, model, device },
    shell: createAndroidShell(phone, files),
    files,
  };
  return { backend, phone };
}

/** The folders an Android phone's shell user finds (`/sdcard`, `/data/local/tmp`…). */
function phoneFiles(): MemoryFiles {
  const files = new MemoryFiles();
  for (const dir of ['/sdcard/Download', '/sdcard/Pictures', '/data/local/tmp', '/storage', '/system']) files.mkdir(dir, 0o771);
  return files;
}
