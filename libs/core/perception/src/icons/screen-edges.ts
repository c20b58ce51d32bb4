import { sharp } from '../sharp';
import type { PixelEngine } from '../workers/pixel-pool';
import type { GrayImage } from './gray-image';
import type { SearchImage } from './template-match';

/** A screenshot's edge maps at 1 pixel per point (fine) and 0.5 (coarse), ready for correlation. */
export interface ScreenEdges {
  fine: SearchImage;
  coarse: SearchImage;
}

/** Decoding runs in sharp's threads, the edge arithmetic on `pixels` (worker threads). */
export async function screenEdges(png: Buffer, pixelScale: number, pixels: PixelEngine): Promise<ScreenEdges> {
  const meta = await sharp(png).metadata();
  const widthPt = Math.max(2, Math.round((meta.width ?? 1) / pixelScale));
  const heightPt = Math.max(2, Math.round((meta.height ?? 1) / pixelScale));
  // One PNG decode: the coarse level is a 2×2 average of the fine one.
  return pixels.screenImages(await grayAt(png, widthPt, heightPt));
}

async function grayAt(png: Buffer, width: number, height: number): Promise<GrayImage> {
  const { data, info } = await sharp(png)
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .grayscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const out = new Float32Array(info.width * info.height);
  for (let i = 0, p = 0; p < out.length; i += info.channels, p++) out[p] = data[i] / 255;
  return { width: info.width, height: info.height, data: out };
}
