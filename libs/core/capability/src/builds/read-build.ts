import { open } from 'node:fs/promises';
import path from 'node:path';
import { ApexError, invalidArgument } from '@apex/errors';
import type { AppBuild, MediaFile } from '@apex/port';
import { readApk } from './apk';
import { resolveInsideRoots } from './host-paths';
import { BuildError, readAppDir, readAppDirFile, readArchive, readArchiveFiles, type BundleIdentity } from './ios-bundle';

/** The kinds of build install_app takes, by how the path ends. */
const BUILD_KINDS: Record<string, AppBuild['kind']> = { '.app': 'app', '.ipa': 'ipa', '.zip': 'ipa', '.apk': 'apk' };

function notABuild(reason: string): ApexError {
  return invalidArgument(`The path is not an installable build: ${reason}.`, [{ path: 'path', message: reason }], 'Give an .app folder, an .ipa or .zip of one (iOS), or an .apk (Android), as your build tools produce them.');
}

/**
 * A build on the Apex host, checked and read: inside the allowed roots (see host-paths.ts), of a kind Apex
 * installs, and its id, name and version read from the build itself (Info.plist, XML or binary; an `.apk`'s
 * manifest through `readApk`). Anything else is `invalid_argument`; nothing reaches a device.
 */
export async function readBuild(requested: string, roots: readonly string[]): Promise<AppBuild> {
  const kind = BUILD_KINDS[path.extname(requested.replace(/[\\/]+$/, '')).toLowerCase()];
  if (!kind) throw notABuild('it must end in .app, .ipa, .zip or .apk');
  const file = await resolveInsideRoots(requested, roots);
  if (kind === 'app' && !file.isDirectory) throw notABuild('an .app build is a folder');
  if (kind !== 'app' && file.isDirectory) throw notABuild(`a ${path.extname(requested)} build is a file`);
  let identity: BundleIdentity;
  try {
    identity = kind === 'app' ? await readAppDir(file.path) : kind === 'ipa' ? await readArchive(file.path) : await readApk(file.path);
  } catch (error) {
    if (error instanceof BuildError) throw notABuild(error.message);
    throw error;
  }
  return { path: file.path, kind, ...identity };
}

/**
 * A file at the top of an iOS build's bundle (e.g. a resource a simulator reads), or undefined when it has
 * none; larger than `maxBytes` → `invalid_argument`.
 */
export async function readBuildFile(build: AppBuild, name: string, maxBytes: number): Promise<Buffer | undefined> {
  try {
    if (build.kind === 'app') return await readAppDirFile(build.path, name, maxBytes);
    if (build.kind === 'ipa') return (await readArchiveFiles(build.path, [{ name, maxBytes }]))[0];
  } catch (error) {
    if (error instanceof BuildError) throw notABuild(error.message);
    throw error;
  }
  return undefined;
}

const MEDIA_KINDS: Record<string, MediaFile['kind']> = {
  '.jpg': 'photo',
  '.jpeg': 'photo',
  '.png': 'photo',
  '.heic': 'photo',
  '.gif': 'photo',
  '.mp4': 'video',
  '.mov': 'video',
  '.m4v': 'video',
};

/** The bytes each kind of media file starts with (a text file named .jpg is not a photo). */
function looksLike(extension: string, head: Buffer): boolean {
  switch (extension) {
    case '.jpg':
    case '.jpeg':
      return head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff;
    case '.png':
      return head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    case '.gif':
      return head.subarray(0, 4).toString('latin1') === 'GIF8';
    default:
      // HEIC and the video containers are ISO base media files: a box whose type is "ftyp".
      return head.subarray(4, 8).toString('latin1') === 'ftyp';
  }
}

/** A photo or video on the Apex host for add_media: inside the roots, a known kind, and really that kind. */
export async function readMediaFile(requested: string, roots: readonly string[], maxBytes: number): Promise<MediaFile> {
  const extension = path.extname(requested).toLowerCase();
  const kind = MEDIA_KINDS[extension];
  const hint = `Give a photo (${Object.keys(MEDIA_KINDS).filter((k) => MEDIA_KINDS[k] === 'photo').join(', ')}) or a video (.mp4, .mov, .m4v).`;
  if (!kind) throw invalidArgument('The path is not a photo or video.', [{ path: 'path', message: 'must end in a photo or video extension' }], hint);
  const file = await resolveInsideRoots(requested, roots);
  if (file.isDirectory) throw invalidArgument('The path is a folder, not a photo or video.', [{ path: 'path', message: 'must be a file' }], hint);
  if (file.size > maxBytes) throw invalidArgument(`The file is larger than ${maxBytes / 1024 / 1024} MB.`, [{ path: 'path', message: 'too large' }], hint);
  const handle = await open(file.path, 'r');
  try {
    const head = Buffer.alloc(12);
    await handle.read(head, 0, 12, 0);
    if (!looksLike(extension, head)) throw invalidArgument(`The file is not a ${extension.slice(1)} ${kind}.`, [{ path: 'path', message: `its content is not ${extension.slice(1)}` }], hint);
  } finally {
    await handle.close();
  }
  return { path: file.path, kind };
}
