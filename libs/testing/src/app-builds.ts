/**
 * Builds as tests need them, made at run time (no binaries in the repository): ZIP archives (an `.ipa` is one;
 * written by `@apex/zip/testing`), XML and binary property lists. Enough of each format for Info.plist-sized data.
 */

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An XML property list of one dictionary of strings, as Xcode writes Info.plist. */
export function xmlPlist(dict: Record<string, string>): string {
  const body = Object.entries(dict)
    .map(([k, v]) => `\t<key>${escapeXml(k)}</key>\n\t<string>${escapeXml(v)}</string>`)
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0">\n<dict>\n${body}\n</dict>\n</plist>\n`;
}

/**
 * A binary property list (`bplist00`, as `plutil -convert binary1` writes) of one dictionary of strings: ASCII
 * strings as 0x5N objects, others as UTF-16 (0x6N), one-byte object refs and offsets sized to fit.
 */
export function binaryPlist(dict: Record<string, string>): Buffer {
  const entries = Object.entries(dict);
  const strings = [...entries.map(([k]) => k), ...entries.map(([, v]) => v)];
  const objects: Buffer[] = [];
  const lengthMarker = (kind: number, count: number) =>
    count < 15 ? Buffer.from([(kind << 4) | count]) : Buffer.from([(kind << 4) | 0xf, 0x11, count >> 8, count & 0xff]);
  // Object 0: the dict; then the keys, then the values.
  const refs = strings.map((_, i) => i + 1);
  objects.push(Buffer.concat([lengthMarker(0xd, entries.length), Buffer.from(refs)]));
  for (const s of strings) {
    const ascii = [...s].every((c) => c.charCodeAt(0) < 0x80);
    const body = ascii ? Buffer.from(s, 'latin1') : Buffer.from(s, 'utf16le').swap16();
    objects.push(Buffer.concat([lengthMarker(ascii ? 0x5 : 0x6, s.length), body]));
  }
  const header = Buffer.from('bplist00', 'latin1');
  const offsets: number[] = [];
  let at = header.length;
  for (const object of objects) {
    offsets.push(at);
    at += object.length;
  }
  const offsetSize = at < 256 ? 1 : 2;
  const table = Buffer.alloc(offsets.length * offsetSize);
  offsets.forEach((o, i) => (offsetSize === 1 ? table.writeUInt8(o, i) : table.writeUInt16BE(o, i * 2)));
  const trailer = Buffer.alloc(32);
  trailer[6] = offsetSize;
  trailer[7] = 1;
  trailer.writeBigUInt64BE(BigInt(objects.length), 8);
  trailer.writeBigUInt64BE(0n, 16);
  trailer.writeBigUInt64BE(BigInt(at), 24);
  return Buffer.concat([header, ...objects, table, trailer]);
}
