import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { ApkError, readApkInfo } from '@apex/apk';
import { ApexError, echoName, invalidArgument } from '@apex/errors';
import { fileSource } from '@apex/zip';

/** Largest APK Apex installs: the zip format without ZIP64 stops at 4 GiB, and Android's own limit is lower. */
export const MAX_APK_BYTES = 4 * 1024 * 1024 * 1024 - 1;

/**
 * What an Android build (`.apk` on the Apex host) says about itself: package name, label, version. The path is
 * already checked (inside the allowed roots, resolved). Anything that is not a readable APK — not a zip, no
 * manifest, a zip bomb, a manifest over the limit — is `invalid_argument`, and nothing is sent to a phone.
 */
export async function readApk(path: string): Promise<{ appId: string; name: string; version?: string }> {
  const shown = echoName(basename(path));
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (cause) {
    throw new ApexError('invalid_argument', `The app build "${shown}" cannot be opened.`, { hint: 'Check that the file exists and is readable.', cause });
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new ApkError('it is not a file');
    if (stat.size > MAX_APK_BYTES) throw new ApkError('it is larger than an app build may be');
    const info = await readApkInfo(fileSource(handle, stat.size));
    return { appId: info.appId, name: info.name, ...(info.version === undefined ? {} : { version: info.version }) };
  } catch (error) {
    if (error instanceof ApkError) {
      // Named as the install operation's `path` field, as the other build readers name it.
      throw invalidArgument(`The file "${shown}" is not a usable Android app build: ${error.reason}.`, [{ path: 'path', message: error.reason }], 'Pass the .apk your build produced (e.g. app/build/outputs/apk/debug/app-debug.apk).');
    }
    throw new ApexError('invalid_argument', `The app build "${shown}" cannot be read.`, { cause: error });
  } finally {
    await handle.close();
  }
}
