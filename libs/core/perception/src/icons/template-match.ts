import { iou } from '../geometry';
import type { EdgeImage, GrayImage } from './gray-image';

/** An edge image prepared for normalized cross-correlation: running sums answer any window's mean and variance. */
export interface SearchImage {
  edges: EdgeImage;
  /** The channels one after another in one array (one monomorphic inner loop instead of one per channel). */
  planes: Float32Array;
  /** Integral of the per-pixel sum over channels, (width+1) × (height+1). */
  sum: Float64Array;
  /** Integral of the per-pixel sum of squares over channels. */
  squares: Float64Array;
}

/** A template match, in the pixels of the image searched. */
export interface Hit {
  x: number;
  y: number;
  width: number;
  height: number;
  score: number;
}

/** Windows whose standard deviation is below this are flat (no edges): skipped without correlating. */
const MIN_WINDOW_STD = 0.06;
/** Template values below this share of its maximum are treated as zero (they barely move the score). */
const SPARSE_CUTOFF = 0.05;

export function toSearchImage(edges: EdgeImage): SearchImage {
  const { width, height, channels } = edges;
  const stride = width + 1;
  const sum = new Float64Array(stride * (height + 1));
  const squares = new Float64Array(stride * (height + 1));
  for (let y = 0; y < height; y++) {
    let rowSum = 0;
    let rowSquares = 0;
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      for (const channel of channels) {
        const v = channel[i];
        rowSum += v;
        rowSquares += v * v;
      }
      sum[(y + 1) * stride + x + 1] = sum[y * stride + x + 1] + rowSum;
      squares[(y + 1) * stride + x + 1] = squares[y * stride + x + 1] + rowSquares;
    }
  }
  const planes = new Float32Array(width * height * channels.length);
  channels.forEach((channel, c) => planes.set(channel, c * width * height));
  return { edges, planes, sum, squares };
}

/** Pixel window (inclusive start, exclusive end) to search top-left corners in. */
export interface Window {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * Zero-normalized cross-correlation of `template` at every position of `target` (inside `window`), over all
 * orientation channels together, returning positions scoring at least `minScore` that are local maxima. The
 * numerator only visits the template's non-zero pixels (edge templates are sparse):
 * Σ I·(T−T̄) = Σ I·T − T̄·Σ I.
 */
export function correlate(target: SearchImage, template: EdgeImage, minScore: number, window?: Window): Hit[] {
  const { width: W, height: H } = target.edges;
  const { width: w, height: h } = template;
  if (w > W || h > H || w < 3 || h < 3) return [];
  const channelCount = template.channels.length;
  const n = w * h * channelCount;
  let templateSum = 0;
  for (const channel of template.channels) for (let i = 0; i < w * h; i++) templateSum += channel[i];
  const templateMean = templateSum / n;
  let templateNorm = 0;
  for (const channel of template.channels) for (let i = 0; i < w * h; i++) templateNorm += (channel[i] - templateMean) ** 2;
  templateNorm = Math.sqrt(templateNorm);
  if (templateNorm === 0) return [];

  // Non-zero template pixels as offsets into the image's concatenated planes; faint blur tails are dropped.
  let templateMax = 0;
  for (const channel of template.channels) for (let i = 0; i < w * h; i++) templateMax = Math.max(templateMax, channel[i]);
  const cutoff = templateMax * SPARSE_CUTOFF;
  const offsetList: number[] = [];
  const valueList: number[] = [];
  template.channels.forEach((channel, c) => {
    for (let ty = 0; ty < h; ty++) {
      for (let tx = 0; tx < w; tx++) {
        const v = channel[ty * w + tx];
        if (v > cutoff) {
          offsetList.push(c * W * H + ty * W + tx);
          valueList.push(v);
        }
      }
    }
  });
  const off = Int32Array.from(offsetList);
  const val = Float32Array.from(valueList);
  const count = off.length;

  const x0 = Math.max(0, window?.x0 ?? 0);
  const y0 = Math.max(0, window?.y0 ?? 0);
  const x1 = Math.min(W - w + 1, window?.x1 ?? W);
  const y1 = Math.min(H - h + 1, window?.y1 ?? H);
  if (x1 <= x0 || y1 <= y0) return [];
  const scoreWidth = x1 - x0;
  const scores = new Float32Array(scoreWidth * (y1 - y0)).fill(-1);
  const stride = W + 1;
  const { sum: S, squares: Q } = target;
  const minVariance = MIN_WINDOW_STD * MIN_WINDOW_STD * n;
  const planes = target.planes;

  for (let y = y0; y < y1; y++) {
    const top = y * stride;
    const bottom = (y + h) * stride;
    for (let x = x0; x < x1; x++) {
      const windowSum = S[bottom + x + w] - S[top + x + w] - S[bottom + x] + S[top + x];
      const windowSquares = Q[bottom + x + w] - Q[top + x + w] - Q[bottom + x] + Q[top + x];
      const variance = windowSquares - (windowSum * windowSum) / n;
      if (variance < minVariance) continue;
      const base = y * W + x;
      let acc = 0;
      for (let k = 0; k < count; k++) acc += planes[base + off[k]] * val[k];
      scores[(y - y0) * scoreWidth + (x - x0)] = (acc - templateMean * windowSum) / (templateNorm * Math.sqrt(variance));
    }
  }

  const hits: Hit[] = [];
  const rows = y1 - y0;
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < scoreWidth; x++) {
      const s = scores[y * scoreWidth + x];
      if (s < minScore || !isLocalMaximum(scores, scoreWidth, rows, x, y, s)) continue;
      hits.push({ x: x + x0, y: y + y0, width: w, height: h, score: Math.min(1, s) });
    }
  }
  return hits;
}

function isLocalMaximum(scores: Float32Array, width: number, height: number, x: number, y: number, s: number): boolean {
  for (let dy = -1; dy <= 1; dy++) {
    for (let dx = -1; dx <= 1; dx++) {
      if (dx === 0 && dy === 0) continue;
      const nx = x + dx;
      const ny = y + dy;
      if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
      const other = scores[ny * width + nx];
      if (other > s || (other === s && (dy < 0 || (dy === 0 && dx < 0)))) return false;
    }
  }
  return true;
}

/** Non-maximum suppression: best first, dropping any box overlapping a kept one by more than `maxIou`. */
export function nonMaximumSuppression<T extends { score: number; x: number; y: number; width: number; height: number }>(
  hits: T[],
  maxIou = 0.3,
): T[] {
  const kept: T[] = [];
  for (const hit of [...hits].sort((a, b) => b.score - a.score)) {
    if (kept.every((k) => iou(k, hit) <= maxIou && !centerInside(hit, k) && !centerInside(k, hit))) kept.push(hit);
  }
  return kept;
}

function centerInside(a: Hit | { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  const cx = a.x + a.width / 2;
  const cy = a.y + a.height / 2;
  return cx > b.x && cy > b.y && cx < b.x + b.width && cy < b.y + b.height;
}

/** Area-average (down) / bilinear (up) resampling of a small grey image. */
export function resizeGray(image: GrayImage, width: number, height: number): GrayImage {
  const out = new Float32Array(width * height);
  const sx = image.width / width;
  const sy = image.height / height;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (sx >= 1 && sy >= 1) {
        const xs = Math.floor(x * sx);
        const ys = Math.floor(y * sy);
        const xe = Math.max(xs + 1, Math.floor((x + 1) * sx));
        const ye = Math.max(ys + 1, Math.floor((y + 1) * sy));
        let total = 0;
        for (let yy = ys; yy < ye; yy++) for (let xx = xs; xx < xe; xx++) total += image.data[yy * image.width + xx];
        out[y * width + x] = total / ((xe - xs) * (ye - ys));
      } else {
        const fx = Math.min(image.width - 1, Math.max(0, (x + 0.5) * sx - 0.5));
        const fy = Math.min(image.height - 1, Math.max(0, (y + 0.5) * sy - 0.5));
        const ix = Math.floor(fx);
        const iy = Math.floor(fy);
        const ax = fx - ix;
        const ay = fy - iy;
        const at = (xx: number, yy: number) =>
          image.data[Math.min(image.height - 1, yy) * image.width + Math.min(image.width - 1, xx)];
        out[y * width + x] =
          (1 - ax) * (1 - ay) * at(ix, iy) + ax * (1 - ay) * at(ix + 1, iy) + (1 - ax) * ay * at(ix, iy + 1) + ax * ay * at(ix + 1, iy + 1);
      }
    }
  }
  return { width, height, data: out };
}
