import type { ScreenImage } from '../screen-image';
import type { PixelEngine } from '../workers/pixel-pool';
import type { GrayImage } from './gray-image';
import type { SearchImage } from './template-match';

/** A screenshot's edge maps at 1 pixel per point (fine) and 0.5 (coarse), ready for correlation. */
export interface ScreenEdges {
  fine: SearchImage;
  coarse: SearchImage;
}

/** Resizing runs in sharp's threads (from the capture's one decode), the edge arithmetic on `pixels` (worker threads). */
export async function screenEdges(capture: ScreenImage, pixels: PixelEngine): Promise<ScreenEdges> {
  const decoded = await capture.pixels();
  const widthPt = Math.max(2, Math.round(decoded.width / capture.scale));
  const heightPt = Math.max(2, Math.round(decoded.height / capture.scale));
  // The coarse level is a 2×2 average of the fine one.
  return pixels.screenImages(await grayAt(capture, widthPt, heightPt));
}

async function grayAt(capture: ScreenImage, width: number, height: number): Promise<GrayImage> {
  const { data, info } = await (await capture.pipeline())
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .grayscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const out = new Float32Array(info.width * info.height);
  for (let i = 0, p = 0; p < out.length; i += info.channels, p++) out[p] = data[i] / 255;
  return { width: info.width, height: info.height, data: out };
}
