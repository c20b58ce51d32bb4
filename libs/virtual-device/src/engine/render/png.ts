import { constants, crc32, deflateRawSync, deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** zlib header: deflate, 32 KB window, fastest-compression hint. */
const ZLIB_HEADER = Buffer.from([0x78, 0x01]);
/** An empty final deflate block (fixed Huffman, end of block): closes a stream of flushed strips. */
const FINAL_BLOCK = deflateRawSync(Buffer.alloc(0));
/** Rows per independently compressed strip. */
const STRIP_ROWS = 64;
const ADLER_BASE = 65521;

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** adler32(A ‖ B) from adler32(A), adler32(B) and B's length (zlib's adler32_combine). */
function adlerCombine(a: number, b: number, lengthB: number): number {
  const rem = lengthB % ADLER_BASE;
  let sum1 = a & 0xffff;
  let sum2 = (rem * sum1) % ADLER_BASE;
  sum1 += (b & 0xffff) + ADLER_BASE - 1;
  sum2 += ((a >>> 16) & 0xffff) + ((b >>> 16) & 0xffff) + ADLER_BASE - rem;
  if (sum1 >= ADLER_BASE) sum1 -= ADLER_BASE;
  if (sum1 >= ADLER_BASE) sum1 -= ADLER_BASE;
  if (sum2 >= ADLER_BASE * 2) sum2 -= ADLER_BASE * 2;
  if (sum2 >= ADLER_BASE) sum2 -= ADLER_BASE;
  return (sum1 + sum2 * 65536) >>> 0;
}

interface Strip {
  deflated: Buffer;
  adler: number;
  length: number;
}

/**
 * Encodes opaque RGBA screens as PNGs: no row filters (UI screens are large flat areas) and fast deflate, in
 * horizontal strips compressed independently. A strip whose pixels did not change since the last encode
 * reuses its compressed bytes, so a screen where one switch flipped costs a fraction of a full encode.
 * The output is a pure function of the pixels (strip boundaries are fixed), whatever was encoded before.
 */
export class PngEncoder {
  private previous: { pixels: Buffer; width: number; height: number; strips: Strip[] } | null = null;
  private scratch: Buffer | null = null;

  encode(rgba: Buffer, width: number, height: number): Buffer {
    const stride = width * 4;
    const prev = this.previous && this.previous.width === width && this.previous.height === height ? this.previous : null;
    const strips: Strip[] = [];
    for (let y0 = 0, i = 0; y0 < height; y0 += STRIP_ROWS, i++) {
      const rows = Math.min(STRIP_ROWS, height - y0);
      const start = y0 * stride;
      const end = start + rows * stride;
      if (prev && rgba.subarray(start, end).equals(prev.pixels.subarray(start, end))) {
        strips.push(prev.strips[i]);
        continue;
      }
      const raw = this.rawRows(rows * (stride + 1));
      for (let r = 0; r < rows; r++) {
        const o = r * (stride + 1);
        raw[o] = 0; // filter: none
        rgba.copy(raw, o + 1, start + r * stride, start + (r + 1) * stride);
      }
      const deflated = deflateRawSync(raw, { level: 1, finishFlush: constants.Z_SYNC_FLUSH });
      // zlib computes the checksum natively: a stored (level 0) stream ends with adler32 of its input.
      const stored = deflateSync(raw, { level: 0 });
      strips.push({ deflated, adler: stored.readUInt32BE(stored.length - 4), length: raw.length });
    }
    this.previous = { pixels: rgba, width, height, strips };

    let adler = 1;
    for (const s of strips) adler = adlerCombine(adler, s.adler, s.length);
    const trailer = Buffer.alloc(4);
    trailer.writeUInt32BE(adler, 0);
    const idat = Buffer.concat([ZLIB_HEADER, ...strips.map((s) => s.deflated), FINAL_BLOCK, trailer]);

    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(width, 0);
    ihdr.writeUInt32BE(height, 4);
    ihdr[8] = 8; // bit depth
    ihdr[9] = 6; // RGBA
    return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
  }

  private rawRows(size: number): Buffer {
    if (!this.scratch || this.scratch.length < size) this.scratch = Buffer.allocUnsafe(size);
    return this.scratch.subarray(0, size);
  }
}
