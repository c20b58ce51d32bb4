import { promisify } from 'node:util';
import { inflateRaw } from 'node:zlib';
import { ApkError } from './apk-error';

/*
 * Just enough of the ZIP format (PKWARE APPNOTE 4.3) to read named entries of an APK: the end-of-central-
 * directory record, the central directory, and one entry's stored or deflated bytes. Bounded everywhere: the
 * caller says how large an entry may be, and inflating stops there (a zip bomb ends as an ApkError, not as
 * memory). ZIP64 archives (over 4 GiB) are refused.
 */

const inflateRawAsync = promisify(inflateRaw);

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

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_MIN = 22;
const MAX_COMMENT = 0xffff;
/** A central directory larger than this is not an app build (a big game has ~50 000 entries, ~5 MB). */
const MAX_CENTRAL_DIRECTORY = 32 * 1024 * 1024;

async function readExactly(source: ByteSource, offset: number, length: number): Promise<Buffer> {
  if (offset < 0 || offset + length > source.size) throw new ApkError('it is cut short or damaged (an entry points outside the file)');
  const bytes = await source.read(offset, length);
  if (bytes.length !== length) throw new ApkError('it is cut short or damaged');
  return bytes;
}

/** The entries of the archive's central directory. */
export async function zipEntries(source: ByteSource): Promise<ZipEntry[]> {
  if (source.size < EOCD_MIN) throw new ApkError('it is not a zip archive');
  const tailLength = Math.min(source.size, EOCD_MIN + MAX_COMMENT);
  const tail = await readExactly(source, source.size - tailLength, tailLength);
  let eocd = -1;
  for (let i = tail.length - EOCD_MIN; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD_SIGNATURE) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ApkError('it is not a zip archive');
  const count = tail.readUInt16LE(eocd + 10);
  const cdSize = tail.readUInt32LE(eocd + 12);
  const cdOffset = tail.readUInt32LE(eocd + 16);
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) throw new ApkError('it is a ZIP64 archive, larger than an app build may be');
  if (cdSize > MAX_CENTRAL_DIRECTORY) throw new ApkError('its table of contents is too large');
  const cd = await readExactly(source, cdOffset, cdSize);
  const entries: ZipEntry[] = [];
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (p + 46 > cd.length || cd.readUInt32LE(p) !== CENTRAL_SIGNATURE) throw new ApkError('its table of contents is damaged');
    const nameLength = cd.readUInt16LE(p + 28);
    const extraLength = cd.readUInt16LE(p + 30);
    const commentLength = cd.readUInt16LE(p + 32);
    if (p + 46 + nameLength > cd.length) throw new ApkError('its table of contents is damaged');
    entries.push({
      method: cd.readUInt16LE(p + 10),
      compressedSize: cd.readUInt32LE(p + 20),
      size: cd.readUInt32LE(p + 24),
      localHeaderOffset: cd.readUInt32LE(p + 42),
      name: cd.subarray(p + 46, p + 46 + nameLength).toString('utf8'),
    });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** One entry's bytes, at most `maxBytes` once inflated (more: an ApkError naming `what`). */
export async function readZipEntry(source: ByteSource, entry: ZipEntry, maxBytes: number, what: string): Promise<Buffer> {
  if (entry.size > maxBytes) throw new ApkError(`its ${what} is larger than ${maxBytes} bytes`);
  const local = await readExactly(source, entry.localHeaderOffset, 30);
  if (local.readUInt32LE(0) !== LOCAL_SIGNATURE) throw new ApkError(`its ${what} entry is damaged`);
  const dataStart = entry.localHeaderOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  const compressed = await readExactly(source, dataStart, entry.compressedSize);
  if (entry.method === 0) {
    if (entry.compressedSize !== entry.size) throw new ApkError(`its ${what} entry is damaged`);
    return compressed;
  }
  if (entry.method !== 8) throw new ApkError(`its ${what} uses a compression method app builds do not use (${entry.method})`);
  let data: Buffer;
  try {
    // The declared size bounds the output: a bomb that lies about its size stops here.
    data = await inflateRawAsync(compressed, { maxOutputLength: Math.max(1, entry.size) });
  } catch {
    throw new ApkError(`its ${what} does not unpack (damaged, or larger than it says)`);
  }
  if (data.length !== entry.size) throw new ApkError(`its ${what} does not unpack to the size it declares`);
  return data;
}
