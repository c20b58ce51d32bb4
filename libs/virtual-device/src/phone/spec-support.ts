import sharp from 'sharp';
import type { Phone, PhoneElement, Rect } from './model';

/** Test helpers shared by the phone's spec files (not part of the public API). */

export function allElements(root: PhoneElement): PhoneElement[] {
  return [root, ...root.children.flatMap(allElements)];
}

export function findElement(phone: Phone, match: (e: PhoneElement) => boolean): PhoneElement | undefined {
  return allElements(phone.snapshot()).find(match);
}

export function element(phone: Phone, match: (e: PhoneElement) => boolean, what = 'element'): PhoneElement {
  const found = findElement(phone, match);
  if (!found) throw new Error(`no ${what} on screen`);
  return found;
}

export const byLabel =
  (label: string, type?: PhoneElement['type']) =>
  (e: PhoneElement): boolean =>
    e.label === label && (type === undefined || e.type === type);

export function center(r: Rect): { x: number; y: number } {
  return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
}

export function tapElement(phone: Phone, e: PhoneElement): void {
  const c = center(e.rect);
  phone.tap(c.x, c.y);
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

export interface Pixels {
  width: number;
  height: number;
  scale: number;
  /** RGBA at a point (in points). */
  at(x: number, y: number): [number, number, number, number];
  /** Raw RGBA of a rectangle given in points. */
  crop(r: Rect): Buffer;
}

/** Decodes a screenshot with sharp (an independent PNG decoder). */
export async function decode(png: Buffer, scale: number): Promise<Pixels> {
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
  return { width: info.width, height: info.height, scale, at, crop };
}

/** True when the colour is clearly green (the switch's "on" track). */
export function isGreen([r, g, b]: number[]): boolean {
  return g > 150 && r < 120 && b < 140;
}
