import type { FileHandle } from 'node:fs/promises';
import { promisify } from 'node:util';
import { inflateRaw } from 'node:zlib';

/*
 * Just enough of the ZIP format (PKWARE APPNOTE 4.3) to read a few named entries of an app build: the end of
 * central directory record, the central directory, and one entry's stored or deflated bytes. Sizes are checked
 * twice — the declared ones before anything is inflated, the actual ones while inflating (output stops one byte
 * past the declared size) — so a zip bomb is refused without being unpacked. ZIP64 archives (over 4 GiB) and
 * encrypted entries are refused. Every failure is a ZipError.
 */

/** Why an archive cannot be read. The message completes "… is not a usable app build: …". */
export class ZipError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'ZipError';
  }
}

/** Random access to the archive's bytes: a file handle or a buffer. */
export interface ByteSource {
  readonly size: number;
  read(offset: number, length: number): Promise<Buffer>;
}

export function bufferSource(data: Uint8Array): ByteSource {
  const buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return {
    size: buffer.length,
    read: async (offset, length) => buffer.subarray(offset, Math.min(offset + length, buffer.length)),
  };
}

/** An open file of `size` bytes (the caller opens and closes it). */
export function fileSource(file: FileHandle, size: number): ByteSource {
  return {
    size,
    read: async (offset, length) => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await file.read(buffer, 0, length, offset);
      return buffer.subarray(0, bytesRead);
    },
  };
}

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  /** The unpacked size the archive declares. */
  size: number;
  localHeaderOffset: number;
}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_MIN = 22;
/** The end record's comment is at most 65,535 bytes. */
const MAX_COMMENT = 0xffff;
/** Entries of one archive: far more than any app bundle has files. */
export const MAX_ZIP_ENTRIES = 200_000;
/** The central directory itself (names of up to MAX_ZIP_ENTRIES files; a big game has ~50 000 entries, ~5 MB). */
export const MAX_CENTRAL_DIRECTORY_BYTES = 64 * 1024 * 1024;

async function readExactly(source: ByteSource, offset: number, length: number): Promise<Buffer> {
  if (offset < 0 || offset + length > source.size) throw new ZipError('it is cut short or damaged (an entry points outside the file)');
  const bytes = await source.read(offset, length);
  if (bytes.length !== length) throw new ZipError('it is cut short or damaged');
  return bytes;
}

/** The entries of the archive's central directory. */
export async function zipEntries(source: ByteSource): Promise<ZipEntry[]> {
  if (source.size < EOCD_MIN) throw new ZipError('it is not a zip archive');
  const tailLength = Math.min(source.size, EOCD_MIN + MAX_COMMENT);
  const tail = await readExactly(source, source.size - tailLength, tailLength);
  let eocd = -1;
  for (let i = tail.length - EOCD_MIN; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD_SIGNATURE) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ZipError('it is not a zip archive');
  const count = tail.readUInt16LE(eocd + 10);
  const cdSize = tail.readUInt32LE(eocd + 12);
  const cdOffset = tail.readUInt32LE(eocd + 16);
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) throw new ZipError('it is a ZIP64 archive, larger than an app build may be');
  if (count > MAX_ZIP_ENTRIES) throw new ZipError(`it has more than ${MAX_ZIP_ENTRIES} files`);
  if (cdSize > MAX_CENTRAL_DIRECTORY_BYTES) throw new ZipError('its table of contents is too large');
  const cd = await readExactly(source, cdOffset, cdSize);
  const entries: ZipEntry[] = [];
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (p + 46 > cd.length || cd.readUInt32LE(p) !== CENTRAL_SIGNATURE) throw new ZipError('its table of contents is damaged');
    const flags = cd.readUInt16LE(p + 8);
    const nameLength = cd.readUInt16LE(p + 28);
    const extraLength = cd.readUInt16LE(p + 30);
    const commentLength = cd.readUInt16LE(p + 32);
    if (p + 46 + nameLength > cd.length) throw new ZipError('its table of contents is damaged');
    if (flags & 0x1) throw new ZipError('it is encrypted');
    entries.push({
      method: cd.readUInt16LE(p + 10),
      compressedSize: cd.readUInt32LE(p + 20),
      size: cd.readUInt32LE(p + 24),
      localHeaderOffset: cd.readUInt32LE(p + 42),
      // Bit 11: UTF-8 names; otherwise CP437, which agrees with UTF-8 on the ASCII names builds use.
      name: cd.toString(flags & 0x800 ? 'utf8' : 'latin1', p + 46, p + 46 + nameLength),
    });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** What all the entries declare together, unpacked (to bound a whole archive before reading any of it). */
export function declaredSize(entries: readonly ZipEntry[]): number {
  return entries.reduce((sum, entry) => sum + entry.size, 0);
}

/**
 * One entry's bytes, at most `maxBytes` once inflated. Refuses (ZipError naming `what`) an entry declared larger
 * than that, and one whose data inflates to another size than it declared (inflating stops just past it).
 */
export async function readZipEntry(source: ByteSource, entry: ZipEntry, maxBytes: number, what: string): Promise<Buffer> {
  if (entry.size > maxBytes) throw new ZipError(`its ${what} is larger than ${maxBytes} bytes`);
  const local = await readExactly(source, entry.localHeaderOffset, 30);
  if (local.readUInt32LE(0) !== LOCAL_SIGNATURE) throw new ZipError(`its ${what} entry is damaged`);
  const dataStart = entry.localHeaderOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  const compressed = await readExactly(source, dataStart, entry.compressedSize);
  let data: Buffer;
  if (entry.method === 0) data = compressed;
  else if (entry.method === 8) {
    try {
      // One byte past the declared size is enough to know the entry lied: a bomb stops here.
      data = await inflateRawAsync(compressed, { maxOutputLength: entry.size + 1 });
    } catch {
      throw new ZipError(`its ${what} does not unpack (damaged, or larger than it says)`);
    }
  } else throw new ZipError(`its ${what} uses a compression method app builds do not use (${entry.method})`);
  if (data.length !== entry.size) throw new ZipError(`its ${what} does not unpack to the size it declares`);
  return data;
}

const inflateRawAsync = promisify(inflateRaw);
