import type { FileHandle } from 'node:fs/promises';
import { inflateRaw } from 'node:zlib';
import { promisify } from 'node:util';

const inflateRawAsync = promisify(inflateRaw);

/**
 * Just enough of the ZIP format (APPNOTE.TXT) to read a few small files out of an `.ipa`: the central
 * directory, then one entry at a time, stored or deflated. Sizes are checked twice — the declared ones before
 * anything is inflated, the actual ones while inflating (output stops at the declared size) — so a zip bomb
 * is refused without being unpacked. Nothing is written to disk. Throws `ZipError` for anything malformed.
 */

export class ZipError extends Error {}

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_MIN = 22;
/** The end record's comment is at most 65,535 bytes. */
const EOCD_SEARCH = EOCD_MIN + 0xffff;
/** Entries of one archive: far more than any app bundle has files. */
export const MAX_ZIP_ENTRIES = 200_000;
/** The central directory itself (names of up to MAX_ZIP_ENTRIES files). */
const MAX_CENTRAL_DIRECTORY_BYTES = 64 * 1024 * 1024;

async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  if (bytesRead !== length) throw new ZipError('the archive is truncated');
  return buffer;
}

/** The entries of the archive's central directory; `ZipError` when it is not a (supported) ZIP archive. */
export async function zipEntries(file: FileHandle, size: number): Promise<ZipEntry[]> {
  if (size < EOCD_MIN) throw new ZipError('not a ZIP archive');
  const tailLength = Math.min(size, EOCD_SEARCH);
  const tail = await readAt(file, size - tailLength, tailLength);
  let eocd = -1;
  for (let i = tail.length - EOCD_MIN; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD_SIGNATURE) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ZipError('not a ZIP archive');
  const count = tail.readUInt16LE(eocd + 10);
  const directorySize = tail.readUInt32LE(eocd + 12);
  const directoryOffset = tail.readUInt32LE(eocd + 16);
  if (count === 0xffff || directoryOffset === 0xffffffff) throw new ZipError('ZIP64 archives are not supported');
  if (count > MAX_ZIP_ENTRIES) throw new ZipError(`the archive has more than ${MAX_ZIP_ENTRIES} entries`);
  if (directorySize > MAX_CENTRAL_DIRECTORY_BYTES || directoryOffset + directorySize > size) throw new ZipError('the archive directory is malformed');
  const directory = await readAt(file, directoryOffset, directorySize);
  const entries: ZipEntry[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > directory.length || directory.readUInt32LE(at) !== CENTRAL_SIGNATURE) throw new ZipError('the archive directory is malformed');
    const flags = directory.readUInt16LE(at + 8);
    const nameLength = directory.readUInt16LE(at + 28);
    const extraLength = directory.readUInt16LE(at + 30);
    const commentLength = directory.readUInt16LE(at + 32);
    if (at + 46 + nameLength > directory.length) throw new ZipError('the archive directory is malformed');
    if (flags & 0x1) throw new ZipError('encrypted archives are not supported');
    entries.push({
      method: directory.readUInt16LE(at + 10),
      compressedSize: directory.readUInt32LE(at + 20),
      uncompressedSize: directory.readUInt32LE(at + 24),
      localHeaderOffset: directory.readUInt32LE(at + 42),
      // Bit 11: UTF-8 names; otherwise CP437, which agrees with UTF-8 on the ASCII names bundles use.
      name: directory.toString(flags & 0x800 ? 'utf8' : 'latin1', at + 46, at + 46 + nameLength),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * One entry's bytes. Refuses (ZipError) an entry declared larger than `maxBytes`, and one whose data inflates
 * to more than it declared (inflating stops there).
 */
export async function readZipEntry(file: FileHandle, size: number, entry: ZipEntry, maxBytes: number): Promise<Buffer> {
  if (entry.uncompressedSize > maxBytes) throw new ZipError(`${entry.name} is larger than ${maxBytes} bytes`);
  const header = await readAt(file, entry.localHeaderOffset, 30);
  if (header.readUInt32LE(0) !== LOCAL_SIGNATURE) throw new ZipError('an archive entry is malformed');
  const dataStart = entry.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  if (dataStart + entry.compressedSize > size) throw new ZipError('the archive is truncated');
  const data = await readAt(file, dataStart, entry.compressedSize);
  let bytes: Buffer;
  if (entry.method === 0) bytes = data;
  else if (entry.method === 8) {
    try {
      // One byte past the declared size is enough to know the entry lied.
      bytes = await inflateRawAsync(data, { maxOutputLength: entry.uncompressedSize + 1 });
    } catch (error) {
      const tooLarge = (error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE';
      throw new ZipError(tooLarge ? `${entry.name} unpacks to more than it declares` : `${entry.name} cannot be unpacked`);
    }
  } else throw new ZipError(`${entry.name} uses an unsupported compression method (${entry.method})`);
  if (bytes.length !== entry.uncompressedSize) throw new ZipError(`${entry.name} unpacks to another size than it declares`);
  return bytes;
}
