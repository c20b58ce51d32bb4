import { ApkError } from './apk-error';
import { chunkAt, chunksIn, RES, StringPool, VALUE } from './res-chunks';

/*
 * The resource table (resources.arsc), read only to turn a reference such as the app's `@string/app_name`
 * (0x7fTTEEEE: package, type, entry) into its text: ResTable_header → global string pool → ResTable_package
 * chunks → ResTable_type chunks (one per configuration) → ResTable_entry + Res_value. The default
 * configuration wins, then English, then the first that has the entry.
 */

const NO_ENTRY = 0xffffffff;
const FLAG_SPARSE = 0x01;
const FLAG_OFFSET16 = 0x02;
const ENTRY_FLAG_COMPLEX = 0x0001;
const ENTRY_FLAG_COMPACT = 0x0008;
const MAX_HOPS = 8;

interface TypeChunk {
  data: Buffer;
  start: number;
  headerSize: number;
  flags: number;
  entryCount: number;
  entriesStart: number;
  /** 0 = the default configuration, 1 = English, 2 = anything else. */
  rank: number;
}

export class ResourceTable {
  private readonly strings: StringPool;
  /** `packageId << 8 | typeId` → its type chunks, best configuration first. */
  private readonly types = new Map<number, TypeChunk[]>();

  constructor(private readonly data: Buffer) {
    const table = chunkAt(data, 0);
    if (table.type !== RES.TABLE) throw new ApkError('its resource table is damaged');
    let strings: StringPool | undefined;
    for (const chunk of chunksIn(data, table.start + table.headerSize, table.end)) {
      if (chunk.type === RES.STRING_POOL && !strings) strings = new StringPool(data, chunk);
      else if (chunk.type === RES.TABLE_PACKAGE) this.readPackage(chunk.start, chunk.headerSize, chunk.end);
    }
    if (!strings) throw new ApkError('its resource table has no strings');
    this.strings = strings;
    for (const list of this.types.values()) list.sort((a, b) => a.rank - b.rank);
  }

  private readPackage(start: number, headerSize: number, end: number): void {
    const packageId = this.data.readUInt32LE(start + 8);
    for (const chunk of chunksIn(this.data, start + headerSize, end)) {
      if (chunk.type !== RES.TABLE_TYPE) continue;
      const d = this.data;
      const typeId = d.readUInt8(chunk.start + 8);
      const configStart = chunk.start + 20;
      const configSize = d.readUInt32LE(configStart);
      const language = d.toString('latin1', configStart + 8, configStart + 10);
      const isDefault = d.subarray(configStart + 4, Math.min(configStart + configSize, chunk.start + chunk.headerSize)).every((b) => b === 0);
      const key = (packageId << 8) | typeId;
      const list = this.types.get(key) ?? [];
      list.push({
        data: d,
        start: chunk.start,
        headerSize: chunk.headerSize,
        flags: d.readUInt8(chunk.start + 9),
        entryCount: d.readUInt32LE(chunk.start + 12),
        entriesStart: chunk.start + d.readUInt32LE(chunk.start + 16),
        rank: isDefault ? 0 : language === 'en' ? 1 : 2,
      });
      this.types.set(key, list);
    }
  }

  /** The text a string reference resolves to (following references), or undefined. */
  resolveString(id: number, hops = 0): string | undefined {
    if (hops > MAX_HOPS) return undefined;
    const list = this.types.get(((id >>> 24) << 8) | ((id >>> 16) & 0xff));
    const index = id & 0xffff;
    for (const type of list ?? []) {
      const value = entryValue(type, index);
      if (!value) continue;
      if (value.type === VALUE.STRING) return this.strings.get(value.data);
      if (value.type === VALUE.REFERENCE) return this.resolveString(value.data, hops + 1);
      return undefined;
    }
    return undefined;
  }
}

function entryValue(t: TypeChunk, index: number): { type: number; data: number } | undefined {
  const d = t.data;
  const offsets = t.start + t.headerSize;
  let offset: number | undefined;
  if (t.flags & FLAG_SPARSE) {
    // Sorted (u16 index, u16 offset / 4) pairs.
    for (let i = 0; i < t.entryCount; i++) {
      const p = offsets + i * 4;
      if (p + 4 > t.entriesStart) break;
      if (d.readUInt16LE(p) === index) {
        offset = d.readUInt16LE(p + 2) * 4;
        break;
      }
    }
  } else if (index < t.entryCount) {
    if (t.flags & FLAG_OFFSET16) {
      const o = d.readUInt16LE(offsets + index * 2);
      offset = o === 0xffff ? undefined : o * 4;
    } else {
      const o = d.readUInt32LE(offsets + index * 4);
      offset = o === NO_ENTRY ? undefined : o;
    }
  }
  if (offset === undefined) return undefined;
  const p = t.entriesStart + offset;
  if (p + 8 > d.length) return undefined;
  const flags = d.readUInt16LE(p + 2);
  if (flags & ENTRY_FLAG_COMPACT) return { type: flags >>> 8, data: d.readUInt32LE(p + 4) };
  if (flags & ENTRY_FLAG_COMPLEX) return undefined;
  const size = d.readUInt16LE(p);
  if (p + size + 8 > d.length) return undefined;
  return { type: d.readUInt8(p + size + 3), data: d.readUInt32LE(p + size + 4) };
}
