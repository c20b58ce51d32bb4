import type { XMLParser } from 'fast-xml-parser';

/**
 * Property lists as iOS builds carry them (Info.plist): XML or binary (`bplist00`). Just what reading a build
 * needs — dictionaries, arrays, strings, numbers, booleans, data, dates — with every size and depth bounded,
 * since the bytes come from a file a client named. Throws `PlistError` for anything malformed.
 */

export type PlistValue = string | number | bigint | boolean | Buffer | Date | null | PlistValue[] | { [key: string]: PlistValue };

export class PlistError extends Error {}

/** Nesting deeper than any real Info.plist. */
const MAX_DEPTH = 32;
/** Objects read from one binary property list (a real Info.plist has a few hundred). */
const MAX_VISITS = 100_000;

export function parsePlist(bytes: Buffer): PlistValue {
  if (bytes.subarray(0, 8).toString('latin1') === 'bplist00') return parseBinaryPlist(bytes);
  return parseXmlPlist(bytes.toString('utf8'));
}

// ---- XML (Apple's PropertyList-1.0.dtd) -------------------------------------------------------------------

type XmlNode = Record<string, unknown>;

let reader: XMLParser | undefined;

/** Made (and fast-xml-parser required) on the first XML plist read: `apex mcp` answers tools/list without it. */
function xml(): XMLParser {
  if (!reader) {
    const { XMLParser: Parser } = require('fast-xml-parser') as typeof import('fast-xml-parser');
    reader = new Parser({ preserveOrder: true, ignoreAttributes: true, parseTagValue: false, trimValues: false, processEntities: true });
  }
  return reader;
}

function tagOf(node: XmlNode): string | undefined {
  return Object.keys(node).find((k) => k !== ':@' && k !== '#text' && k !== '?xml');
}

function childrenOf(node: XmlNode, tag: string): XmlNode[] {
  const children = node[tag];
  return Array.isArray(children) ? (children as XmlNode[]).filter((c) => tagOf(c) !== undefined) : [];
}

function textOf(node: XmlNode, tag: string): string {
  const children = node[tag];
  if (!Array.isArray(children)) return '';
  return (children as XmlNode[]).map((c) => (typeof c['#text'] === 'string' || typeof c['#text'] === 'number' ? String(c['#text']) : '')).join('');
}

function xmlValue(node: XmlNode, depth: number): PlistValue {
  if (depth > MAX_DEPTH) throw new PlistError('the property list nests too deeply');
  const tag = tagOf(node);
  switch (tag) {
    case 'dict': {
      const out: Record<string, PlistValue> = {};
      const items = childrenOf(node, tag);
      for (let i = 0; i < items.length; i += 2) {
        const key = items[i] as XmlNode;
        const value = items[i + 1];
        if (tagOf(key) !== 'key' || value === undefined) throw new PlistError('a dict must alternate <key> and a value');
        out[textOf(key, 'key')] = xmlValue(value, depth + 1);
      }
      return out;
    }
    case 'array':
      return childrenOf(node, tag).map((c) => xmlValue(c, depth + 1));
    case 'string':
      return textOf(node, tag);
    case 'integer': {
      const text = textOf(node, tag).trim();
      if (!/^[+-]?\d+$/.test(text)) throw new PlistError(`"${text.slice(0, 20)}" is not an integer`);
      return Number(text);
    }
    case 'real':
      return Number(textOf(node, tag));
    case 'true':
      return true;
    case 'false':
      return false;
    case 'date':
      return new Date(textOf(node, tag));
    case 'data':
      return Buffer.from(textOf(node, tag).replace(/\s+/g, ''), 'base64');
    default:
      throw new PlistError(`unexpected element <${String(tag)}>`);
  }
}

function parseXmlPlist(text: string): PlistValue {
  let document: XmlNode[];
  try {
    document = xml().parse(text, true) as XmlNode[];
  } catch (error) {
    throw new PlistError(`not a property list (${error instanceof Error ? error.message.split('\n')[0] : 'unreadable XML'})`);
  }
  const root = document.find((n) => tagOf(n) === 'plist');
  if (!root) throw new PlistError('not a property list: no <plist> element');
  const [top] = childrenOf(root, 'plist');
  if (!top) throw new PlistError('the property list is empty');
  return xmlValue(top, 0);
}

// ---- binary (CFBinaryPList.c: header "bplist00", objects, offset table, 32-byte trailer) -------------------

function parseBinaryPlist(bytes: Buffer): PlistValue {
  if (bytes.length < 8 + 32) throw new PlistError('the binary property list is truncated');
  const trailer = bytes.subarray(bytes.length - 32);
  const offsetSize = trailer[6] as number;
  const refSize = trailer[7] as number;
  const objectCount = Number(trailer.readBigUInt64BE(8));
  const topObject = Number(trailer.readBigUInt64BE(16));
  const tableOffset = Number(trailer.readBigUInt64BE(24));
  const valid =
    offsetSize >= 1 && offsetSize <= 8 && refSize >= 1 && refSize <= 8 && objectCount >= 1 && topObject < objectCount &&
    tableOffset >= 8 && tableOffset + objectCount * offsetSize <= bytes.length - 32;
  if (!valid) throw new PlistError('the binary property list has an invalid trailer');

  const uint = (at: number, size: number): number => {
    if (at < 0 || at + size > bytes.length) throw new PlistError('the binary property list points outside itself');
    let value = 0;
    for (let i = 0; i < size; i++) value = value * 256 + (bytes[at + i] as number);
    return value;
  };
  const offsetOf = (ref: number): number => {
    if (ref >= objectCount) throw new PlistError('the binary property list refers to a missing object');
    return uint(tableOffset + ref * offsetSize, offsetSize);
  };

  // Objects may be shared: count every visit, so a list referring to itself many times cannot blow up.
  let visits = 0;
  const read = (ref: number, depth: number): PlistValue => {
    if (depth > MAX_DEPTH) throw new PlistError('the property list nests too deeply');
    if (++visits > MAX_VISITS) throw new PlistError('the binary property list holds too many objects');
    let at = offsetOf(ref);
    const marker = uint(at, 1);
    const kind = marker >> 4;
    let count = marker & 0xf;
    at += 1;
    if (kind === 0) {
      if (marker === 0x08) return false;
      if (marker === 0x09) return true;
      return null;
    }
    if (kind === 0x1) {
      const size = 1 << count;
      if (size > 8) throw new PlistError('an integer of the binary property list is too wide');
      if (size === 8) return bytes.readBigInt64BE(at) <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(bytes.readBigInt64BE(at)) : bytes.readBigInt64BE(at);
      return uint(at, size);
    }
    if (kind === 0x2) return count === 2 ? bytes.readFloatBE(at) : bytes.readDoubleBE(at);
    if (kind === 0x3) return new Date(Date.UTC(2001, 0, 1) + bytes.readDoubleBE(at) * 1000);
    // A count of 0xF is followed by an integer object holding the real count.
    if (count === 0xf) {
      const intMarker = uint(at, 1);
      if (intMarker >> 4 !== 0x1) throw new PlistError('a length of the binary property list is malformed');
      const size = 1 << (intMarker & 0xf);
      count = uint(at + 1, Math.min(size, 8));
      at += 1 + size;
    }
    const within = (length: number) => {
      if (at + length > bytes.length) throw new PlistError('the binary property list points outside itself');
    };
    switch (kind) {
      case 0x4:
        within(count);
        return Buffer.from(bytes.subarray(at, at + count));
      case 0x5:
        within(count);
        return bytes.toString('latin1', at, at + count);
      case 0x6: {
        within(count * 2);
        const utf16 = Buffer.from(bytes.subarray(at, at + count * 2));
        return utf16.swap16().toString('utf16le');
      }
      case 0x8:
        return uint(at, count + 1);
      case 0xa: {
        within(count * refSize);
        const out: PlistValue[] = [];
        for (let i = 0; i < count; i++) out.push(read(uint(at + i * refSize, refSize), depth + 1));
        return out;
      }
      case 0xd: {
        within(2 * count * refSize);
        const out: Record<string, PlistValue> = {};
        for (let i = 0; i < count; i++) {
          const key = read(uint(at + i * refSize, refSize), depth + 1);
          if (typeof key !== 'string') throw new PlistError('a dict key of the binary property list is not a string');
          out[key] = read(uint(at + (count + i) * refSize, refSize), depth + 1);
        }
        return out;
      }
      default:
        throw new PlistError(`unknown object type 0x${marker.toString(16)} in the binary property list`);
    }
  };
  return read(topObject, 0);
}
