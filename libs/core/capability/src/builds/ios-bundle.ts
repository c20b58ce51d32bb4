import { open, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { declaredSize, fileSource, readZipEntry, ZipError, zipEntries, type ZipEntry } from '@apex/zip';
import { APP_ID_PATTERN, MAX_APP_ID_LENGTH } from '../limits';
import { parsePlist, PlistError, type PlistValue } from './plist';

/**
 * An iOS app bundle, as a directory (`X.app/`) or inside an archive (`Payload/X.app/` of an `.ipa`, or a `.zip`
 * of `X.app/`): its identity from Info.plist, and any file of its top level read on request, bounded.
 */

export class BuildError extends Error {}

/** An Info.plist is a few kilobytes; one above this is not an app's. */
export const MAX_INFO_PLIST_BYTES = 1024 * 1024;
/** What all the entries of an archive may declare together: more than any app, less than a zip bomb. */
export const MAX_ARCHIVE_UNPACKED_BYTES = 8 * 1024 * 1024 * 1024;

export interface BundleIdentity {
  appId: string;
  name: string;
  version?: string;
}

function stringField(plist: Record<string, PlistValue>, key: string): string | undefined {
  const value = plist[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** Bundle id, display name and version from Info.plist's bytes. */
export function identityOf(infoPlist: Buffer): BundleIdentity {
  let plist: PlistValue;
  try {
    plist = parsePlist(infoPlist);
  } catch (error) {
    throw new BuildError(`its Info.plist cannot be read (${error instanceof PlistError ? error.message : 'malformed'})`);
  }
  if (typeof plist !== 'object' || plist === null || Array.isArray(plist) || Buffer.isBuffer(plist) || plist instanceof Date) {
    throw new BuildError('its Info.plist is not a dictionary');
  }
  const appId = stringField(plist, 'CFBundleIdentifier');
  if (!appId) throw new BuildError('its Info.plist has no CFBundleIdentifier');
  if (appId.length > MAX_APP_ID_LENGTH || !APP_ID_PATTERN.test(appId)) throw new BuildError(`its bundle id "${appId.slice(0, 80)}" is not valid`);
  const name = stringField(plist, 'CFBundleDisplayName') ?? stringField(plist, 'CFBundleName') ?? stringField(plist, 'CFBundleExecutable') ?? appId;
  const version = stringField(plist, 'CFBundleShortVersionString') ?? stringField(plist, 'CFBundleVersion');
  return { appId, name: name.slice(0, 100), ...(version ? { version: version.slice(0, 50) } : {}) };
}

/** A file at the top of an `.app` directory, or undefined when it has none; larger than `maxBytes` → BuildError. */
export async function readAppDirFile(appDir: string, name: string, maxBytes: number): Promise<Buffer | undefined> {
  const file = path.join(appDir, name);
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  if (info.size > maxBytes) throw new BuildError(`its ${name} is larger than ${maxBytes} bytes`);
  return readFile(file);
}

export async function readAppDir(appDir: string): Promise<BundleIdentity> {
  const info = await readAppDirFile(appDir, 'Info.plist', MAX_INFO_PLIST_BYTES);
  if (!info) throw new BuildError('it has no Info.plist');
  return identityOf(info);
}

/** The one `X.app/` folder of an archive: `Payload/X.app/` (an .ipa) or `X.app/` at the top (a zipped bundle). */
function bundlePrefix(entries: readonly ZipEntry[]): string {
  const prefixes = new Set<string>();
  for (const entry of entries) {
    const match = /^(Payload\/)?([^/]+\.app)\//.exec(entry.name);
    if (match) prefixes.add(`${match[1] ?? ''}${match[2]}/`);
  }
  if (prefixes.size === 0) throw new BuildError('it holds no app bundle (Payload/Name.app/)');
  if (prefixes.size > 1) throw new BuildError('it holds more than one app bundle');
  return [...prefixes][0] as string;
}

/**
 * Opens an archive, checks its declared sizes, and reads the files asked for from its bundle (undefined for
 * those it lacks). Not a ZIP (e.g. a text file named .ipa), a zip bomb, or no bundle → BuildError.
 */
export async function readArchiveFiles(archive: string, names: readonly { name: string; maxBytes: number }[]): Promise<(Buffer | undefined)[]> {
  const file = await open(archive, 'r');
  try {
    const source = fileSource(file, (await file.stat()).size);
    let entries: ZipEntry[];
    try {
      entries = await zipEntries(source);
    } catch (error) {
      throw new BuildError(error instanceof ZipError ? error.reason : 'it cannot be read');
    }
    if (declaredSize(entries) > MAX_ARCHIVE_UNPACKED_BYTES) throw new BuildError(`it would unpack to more than ${MAX_ARCHIVE_UNPACKED_BYTES / 1024 ** 3} GB`);
    const prefix = bundlePrefix(entries);
    const results: (Buffer | undefined)[] = [];
    for (const { name, maxBytes } of names) {
      const entry = entries.find((e) => e.name === prefix + name);
      if (!entry) {
        results.push(undefined);
        continue;
      }
      try {
        results.push(await readZipEntry(source, entry, maxBytes, name));
      } catch (error) {
        throw new BuildError(error instanceof ZipError ? error.reason : `its ${name} cannot be read`);
      }
    }
    return results;
  } finally {
    await file.close();
  }
}

export async function readArchive(archive: string): Promise<BundleIdentity> {
  const [info] = await readArchiveFiles(archive, [{ name: 'Info.plist', maxBytes: MAX_INFO_PLIST_BYTES }]);
  if (!info) throw new BuildError('its app bundle has no Info.plist');
  return identityOf(info);
}
