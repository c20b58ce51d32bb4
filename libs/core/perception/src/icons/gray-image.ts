import { sharp } from '../sharp';
import type { GrayImage } from '../workers/pixel-kernels';

export type { EdgeImage, GrayImage } from '../workers/pixel-kernels';

/** Decodes any image sharp reads into grey 0..1 at the given size (or its own). Transparent pixels become the
 *  colour that contrasts with the opaque ones, so a white glyph on transparency stays visible. */
export async function decodeGray(image: Buffer, size?: { width: number; height: number }): Promise<GrayImage> {
  let pipeline = sharp(image).ensureAlpha();
  if (size) pipeline = pipeline.resize(size.width, size.height, { fit: 'fill', kernel: 'lanczos3' });
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  const pixels = info.width * info.height;
  const luminance = new Float32Array(pixels);
  const alpha = new Float32Array(pixels);
  let inkSum = 0;
  let inkWeight = 0;
  for (let i = 0, p = 0; p < pixels; i += 4, p++) {
    luminance[p] = (0.299 * data[i] + 0.587 * data[i + 1] + 0.114 * data[i + 2]) / 255;
    alpha[p] = data[i + 3] / 255;
    inkSum += luminance[p] * alpha[p];
    inkWeight += alpha[p];
  }
  const background = inkWeight > 0 && inkSum / inkWeight > 0.5 ? 0 : 1;
  const out = new Float32Array(pixels);
  for (let p = 0; p < pixels; p++) out[p] = luminance[p] * alpha[p] + background * (1 - alpha[p]);
  return { width: info.width, height: info.height, data: out };
}
