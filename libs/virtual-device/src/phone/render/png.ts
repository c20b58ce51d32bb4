import { crc32, deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

let scratchBuffer: Buffer | null = null;

/**
 * The filtered-rows buffer, reused between encodes: a fresh 12 MB allocation per screenshot costs more in page
 * faults than the copy into it. Encoding is synchronous, so one buffer serves every phone in the process.
 */
function scratch(size: number): Buffer {
  if (!scratchBuffer || scratchBuffer.length !== size) scratchBuffer = Buffer.allocUnsafe(size);
  return scratchBuffer;
}

/**
 * Encodes RGBA pixels as a PNG with no row filters and fast deflate. UI screens are large flat areas, so this
 * is several times faster than a general encoder for little size cost; output is a pure function of the pixels.
 */
export function encodePng(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): Buffer {
  const stride = width * 4;
  const raw = scratch((stride + 1) * height);
  const src = Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength);
  for (let y = 0; y < height; y++) {
    const o = y * (stride + 1);
    raw[o] = 0;
    src.copy(raw, o + 1, y * stride, (y + 1) * stride);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  ihdr[10] = 0;
  ihdr[11] = 0;
  ihdr[12] = 0;
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 1 })), chunk('IEND', Buffer.alloc(0))]);
}
