import { ApkError } from './apk-error';

/*
 * The chunk format shared by binary XML and resources.arsc (AOSP frameworks/base/libs/androidfw/include/
 * androidfw/ResourceTypes.h): every chunk starts with `ResChunk_header { u16 type; u16 headerSize; u32 size }`.
 */

export const RES = {
  STRING_POOL: 0x0001,
  TABLE: 0x0002,
  XML: 0x0003,
  XML_START_NAMESPACE: 0x0100,
  XML_END_NAMESPACE: 0x0101,
  XML_START_ELEMENT: 0x0102,
  XML_END_ELEMENT: 0x0103,
  XML_RESOURCE_MAP: 0x0180,
  TABLE_PACKAGE: 0x0200,
  TABLE_TYPE: 0x0201,
  TABLE_TYPE_SPEC: 0x0202,
} as const;

/** `Res_value` data types Apex reads. */
export const VALUE = { NULL: 0x00, REFERENCE: 0x01, STRING: 0x03, INT_DEC: 0x10, INT_HEX: 0x11, BOOLEAN: 0x12 } as const;

const UTF8_FLAG = 0x100;

export interface Chunk {
  type: number;
  headerSize: number;
  /** Offset of the chunk in its buffer. */
  start: number;
  /** Offset just past the chunk. */
  end: number;
}

export function chunkAt(data: Buffer, offset: number, limit = data.length): Chunk {
  if (offset + 8 > limit) throw new ApkError('its binary resources are cut short');
  const type = data.readUInt16LE(offset);
  const headerSize = data.readUInt16LE(offset + 2);
  const size = data.readUInt32LE(offset + 4);
  if (headerSize < 8 || size < headerSize || offset + size > limit) throw new ApkError('its binary resources are damaged');
  return { type, headerSize, start: offset, end: offset + size };
}

/** The chunks directly inside [from, to). */
export function* chunksIn(data: Buffer, from: number, to: number): Generator<Chunk> {
  let p = from;
  while (p + 8 <= to) {
    const chunk = chunkAt(data, p, to);
    yield chunk;
    p = chunk.end;
  }
}

/** A string pool (`ResStringPool_header`), decoded lazily: a manifest may hold thousands of strings. */
export class StringPool {
  private readonly count: number;
  private readonly utf8: boolean;
  private readonly stringsStart: number;
  private readonly cache = new Map<number, string>();

  constructor(
    private readonly data: Buffer,
    private readonly chunk: Chunk,
  ) {
    if (chunk.type !== RES.STRING_POOL || chunk.headerSize < 28) throw new ApkError('its string table is damaged');
    this.count = data.readUInt32LE(chunk.start + 8);
    this.utf8 = (data.readUInt32LE(chunk.start + 16) & UTF8_FLAG) !== 0;
    this.stringsStart = chunk.start + data.readUInt32LE(chunk.start + 20);
    if (chunk.start + chunk.headerSize + this.count * 4 > chunk.end || this.stringsStart > chunk.end) throw new ApkError('its string table is damaged');
  }

  get size(): number {
    return this.count;
  }

  /** The string at `index`, or undefined for an index out of range (0xffffffff means "none"). */
  get(index: number): string | undefined {
    if (index < 0 || index >= this.count) return undefined;
    const cached = this.cache.get(index);
    if (cached !== undefined) return cached;
    const at = this.stringsStart + this.data.readUInt32LE(this.chunk.start + this.chunk.headerSize + index * 4);
    const value = this.utf8 ? this.utf8At(at) : this.utf16At(at);
    this.cache.set(index, value);
    return value;
  }

  private utf8At(at: number): string {
    let p = at;
    const length = (): number => {
      this.need(p, 1);
      let n = this.data[p++];
      if (n & 0x80) {
        this.need(p, 1);
        n = ((n & 0x7f) << 8) | this.data[p++];
      }
      return n;
    };
    length(); // characters (UTF-16 units)
    const bytes = length();
    this.need(p, bytes);
    return this.data.toString('utf8', p, p + bytes);
  }

  private utf16At(at: number): string {
    let p = at;
    this.need(p, 2);
    let n = this.data.readUInt16LE(p);
    p += 2;
    if (n & 0x8000) {
      this.need(p, 2);
      n = ((n & 0x7fff) << 16) | this.data.readUInt16LE(p);
      p += 2;
    }
    this.need(p, n * 2);
    return this.data.toString('utf16le', p, p + n * 2);
  }

  private need(p: number, n: number): void {
    if (p + n > this.chunk.end) throw new ApkError('its string table is damaged');
  }
}
