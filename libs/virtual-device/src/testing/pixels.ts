import sharp from 'sharp';
import type { Rect } from '../iphone/model';

/** Width and height from a PNG's IHDR chunk, without decoding it. */
export function pngSize(png: Buffer): { width: number; height: number } {
  if (png.subarray(1, 4).toString('latin1') !== 'PNG') throw new Error('not a PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

export interface Pixels {
  width: number;
  height: number;
  scale: number;
  png: Buffer;
  /** RGBA at a point (image pixels divided by `scale`). */
  at(x: number, y: number): [number, number, number, number];
  /** Raw RGBA of a rectangle given in points. */
  crop(r: Rect): Buffer;
}

/** Decodes a PNG with sharp (a decoder independent of the phone's renderer); `scale` is pixels per point. */
export async function decode(png: Buffer, scale = 1): Promise<Pixels> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number): [number, number, number, number] => {
    const px = Math.floor(x * scale);
    const py = Math.floor(y * scale);
    const o = (py * info.width + px) * 4;
    return [data[o], data[o + 1], data[o + 2], data[o + 3]];
  };
  const crop = (r: Rect): Buffer => {
    const x0 = Math.round(r.x * scale);
    const y0 = Math.round(r.y * scale);
    const w = Math.round(r.width * scale);
    const h = Math.round(r.height * scale);
    const out = Buffer.alloc(w * h * 4);
    for (let y = 0; y < h; y++) data.copy(out, y * w * 4, ((y0 + y) * info.width + x0) * 4, ((y0 + y) * info.width + x0 + w) * 4);
    return out;
  };
  return { width: info.width, height: info.height, scale, png, at, crop };
}
