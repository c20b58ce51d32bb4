import sharp from 'sharp';
import { blurEdges, orientedEdges, type GrayImage } from './gray-image';
import { toSearchImage, type SearchImage } from './template-match';

/** A screenshot's edge maps at 1 pixel per point (fine) and 0.5 (coarse), ready for correlation. */
export interface ScreenEdges {
  fine: SearchImage;
  coarse: SearchImage;
}

/** Edge strengths are blurred by this radius (pixels) so strokes a pixel off still overlap. */
export const EDGE_BLUR_RADIUS = 1;

export async function screenEdges(png: Buffer, pixelScale: number): Promise<ScreenEdges> {
  const meta = await sharp(png).metadata();
  const widthPt = Math.max(2, Math.round((meta.width ?? 1) / pixelScale));
  const heightPt = Math.max(2, Math.round((meta.height ?? 1) / pixelScale));
  // One PNG decode: the coarse level is a 2×2 average of the fine one.
  const fine = await grayAt(png, widthPt, heightPt);
  const coarse = halve(fine);
  return {
    fine: toSearchImage(blurEdges(orientedEdges(fine), EDGE_BLUR_RADIUS)),
    coarse: toSearchImage(blurEdges(orientedEdges(coarse), EDGE_BLUR_RADIUS)),
  };
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

function halve(image: GrayImage): GrayImage {
  const width = Math.floor(image.width / 2);
  const height = Math.floor(image.height / 2);
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const row0 = 2 * y * image.width;
    const row1 = row0 + image.width;
    for (let x = 0; x < width; x++) {
      const i = 2 * x;
      out[y * width + x] = (image.data[row0 + i] + image.data[row0 + i + 1] + image.data[row1 + i] + image.data[row1 + i + 1]) / 4;
    }
  }
  return { width, height, data: out };
}
