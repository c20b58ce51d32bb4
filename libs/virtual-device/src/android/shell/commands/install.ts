import { ApkError, bufferSource, readApkInfo } from '@apex/apk';
import type { InstalledAppDefinition } from '../../apps/installed-app';
import { permissionGroup } from '../../device/runtime-permissions';
import type { CommandIO } from '../command';

/*
 * `pm install` / `cmd package install` and `pm uninstall`, with PackageManagerShellCommand's outputs: "Success",
 * or "Failure [CODE: message]" with status 1. The host's `adb install` streams the APK on stdin
 * (`exec:cmd package 'install' -S SIZE`, when the device advertises the `cmd` feature) or pushes it to
 * /data/local/tmp and runs `pm install PATH` (older devices); both land here.
 */

/** The largest APK the virtual phone takes (it keeps the parsed manifest, not the bytes; the stream is in memory). */
export const MAX_INSTALL_BYTES = 64 * 1024 * 1024;

/** Options of `install` that take a value. */
const WITH_VALUE = new Set(['-i', '--user', '-p', '--install-location', '--install-reason', '--originating-uri', '--referrer', '--abi', '--force-uuid', '--pkg', '-S', '--staged-ready-timeout']);

function failure(io: CommandIO, code: string, message?: string): number {
  io.out(`Failure [${code}${message ? `: ${message}` : ''}]\n`);
  return 1;
}

/** Exactly `size` bytes of the session's stdin, or what arrived before it ended. */
async function readStdin(io: CommandIO, size: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  if (!io.input || size === 0) return Buffer.alloc(0);
  for await (const chunk of io.input) {
    const need = size - total;
    const part = chunk.length > need ? Buffer.from(chunk).subarray(0, need) : Buffer.from(chunk);
    chunks.push(part);
    total += part.length;
    if (total >= size) break;
  }
  return Buffer.concat(chunks);
}

export async function install(args: string[], io: CommandIO): Promise<number> {
  let size: number | undefined;
  const flags = new Set<string>();
  const paths: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '-S') size = Number(args[++i]);
    else if (WITH_VALUE.has(a)) i++;
    else if (a.startsWith('--')) flags.add(a);
    else if (a.startsWith('-') && a !== '-') for (const f of a.slice(1)) flags.add(`-${f}`);
    else paths.push(a);
  }
  let bytes: Buffer;
  if (size !== undefined) {
    if (!Number.isInteger(size) || size <= 0) {
      io.err('Error: must either specify a package size or an APK file\n');
      return 1;
    }
    if (size > MAX_INSTALL_BYTES) return failure(io, 'INSTALL_FAILED_INSUFFICIENT_STORAGE', 'Failed to allocate space for the package');
    bytes = await readStdin(io, size);
    if (bytes.length !== size) return failure(io, 'INSTALL_FAILED_INVALID_APK', `Expected ${size} bytes, got ${bytes.length}`);
  } else {
    const path = paths[0];
    const data = path && path !== '-' ? io.files.read(path) : undefined;
    if (!path || !data) {
      io.err(`Error: Unable to open file: ${path ?? ''}\nConsider using a file under /data/local/tmp/\nError: Can't open file: ${path ?? ''}\n`);
      io.out('Exception occurred while executing \'install\':\njava.lang.IllegalArgumentException: Error: Can\'t open file\n');
      return 1;
    }
    if (data.length > MAX_INSTALL_BYTES) return failure(io, 'INSTALL_FAILED_INSUFFICIENT_STORAGE');
    bytes = Buffer.from(data);
  }
  let info;
  try {
    info = await readApkInfo(bufferSource(bytes));
  } catch (error) {
    if (!(error instanceof ApkError)) throw error;
    return failure(io, 'INSTALL_PARSE_FAILED_NOT_APK', `Failed to parse /data/app/vmdl.tmp/base.apk: ${error.reason}`);
  }
  const outcome = io.phone.installApk(info, { allowDowngrade: flags.has('-d') });
  if (!outcome.ok) return failure(io, outcome.code, outcome.message);
  // -g: grant every runtime permission the manifest lists.
  if (flags.has('-g')) {
    for (const permission of info.permissions) {
      const group = permissionGroup(permission);
      if (group) io.phone.setGrant(info.appId, group, true);
    }
  }
  io.out('Success\n');
  return 0;
}

/** `pm uninstall [-k] [--user N] PKG`: only apps the user installed; everything else fails as Android answers the shell. */
export function uninstall(args: string[], io: CommandIO): number {
  const pkg = args.filter((a, i) => !a.startsWith('-') && args[i - 1] !== '--user' && args[i - 1] !== '--versionCode').pop();
  if (!pkg) {
    io.err('Error: package name not specified\n');
    return 1;
  }
  if (!io.phone.uninstall(pkg)) return failure(io, 'DELETE_FAILED_INTERNAL_ERROR');
  io.out('Success\n');
  return 0;
}

/** The permissions an installed app declares; undefined for the phone's own apps (they take any runtime grant). */
export function declaredPermissions(io: CommandIO, pkg: string): readonly string[] | undefined {
  return (io.phone.app(pkg) as InstalledAppDefinition | undefined)?.permissions;
}
