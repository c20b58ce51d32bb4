import sharp from 'sharp';

/** A single-channel float image, row-major, values 0..1 (or edge strengths). */
export interface GrayImage {
  width: number;
  height: number;
  data: Float32Array;
}

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

/** Edge strength split by orientation: one channel per direction bin. */
export interface EdgeImage {
  width: number;
  height: number;
  channels: Float32Array[];
}

/** 0°, 45°, 90°, 135°: enough to tell a letter's strokes from a glyph's while staying fast. */
export const ORIENTATION_BINS = 4;

/**
 * Sobel gradients binned by orientation modulo 180° (soft-assigned to the two nearest bins). Orientation
 * modulo 180° and magnitude are the same for dark-on-light and light-on-dark, which is what makes matching
 * survive theme changes; keeping orientation apart is what tells a glyph from a letter of similar size.
 */
export function orientedEdges(image: GrayImage): EdgeImage {
  const { width, height, data } = image;
  const channels = Array.from({ length: ORIENTATION_BINS }, () => new Float32Array(width * height));
  const binWidth = Math.PI / ORIENTATION_BINS;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const a = data[i - width - 1];
      const b = data[i - width];
      const c = data[i - width + 1];
      const d = data[i - 1];
      const f = data[i + 1];
      const g = data[i + width - 1];
      const h = data[i + width];
      const k = data[i + width + 1];
      const gx = c + 2 * f + k - a - 2 * d - g;
      const gy = g + 2 * h + k - a - 2 * b - c;
      const magnitude = Math.sqrt(gx * gx + gy * gy);
      if (magnitude < 1e-3) continue;
      let angle = Math.atan2(gy, gx);
      if (angle < 0) angle += Math.PI;
      const position = angle / binWidth;
      const lower = Math.floor(position) % ORIENTATION_BINS;
      const frac = position - Math.floor(position);
      channels[lower][i] += magnitude * (1 - frac);
      channels[(lower + 1) % ORIENTATION_BINS][i] += magnitude * frac;
    }
  }
  return { width, height, channels };
}

export function blurEdges(edges: EdgeImage, radius: number): EdgeImage {
  return {
    width: edges.width,
    height: edges.height,
    channels: edges.channels.map((data) => boxBlur({ width: edges.width, height: edges.height, data }, radius).data),
  };
}

/** Separable box blur of the given radius (tolerates small differences in stroke position and weight). */
export function boxBlur(image: GrayImage, radius: number): GrayImage {
  if (radius <= 0) return image;
  const { width, height } = image;
  const horizontal = new Float32Array(width * height);
  const out = new Float32Array(width * height);
  const size = 2 * radius + 1;
  for (let y = 0; y < height; y++) {
    let sum = 0;
    const row = y * width;
    for (let x = -radius; x <= radius; x++) sum += image.data[row + clampIndex(x, width)];
    for (let x = 0; x < width; x++) {
      horizontal[row + x] = sum / size;
      sum += image.data[row + clampIndex(x + radius + 1, width)] - image.data[row + clampIndex(x - radius, width)];
    }
  }
  for (let x = 0; x < width; x++) {
    let sum = 0;
    for (let y = -radius; y <= radius; y++) sum += horizontal[clampIndex(y, height) * width + x];
    for (let y = 0; y < height; y++) {
      out[y * width + x] = sum / size;
      sum +=
        horizontal[clampIndex(y + radius + 1, height) * width + x] - horizontal[clampIndex(y - radius, height) * width + x];
    }
  }
  return { width, height, data: out };
}

function clampIndex(i: number, length: number): number {
  return i < 0 ? 0 : i >= length ? length - 1 : i;
}
