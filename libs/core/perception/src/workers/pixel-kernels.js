'use strict';
/**
 * The pixel arithmetic of icon matching: edge maps, their running sums, correlation scores. Plain JavaScript
 * on typed arrays so the very same code runs on the main thread and in the worker threads, which load it
 * without a TypeScript loader (under Jest's transform and under tsx alike). Types: pixel-kernels.d.ts.
 */

/** 0°, 45°, 90°, 135°: enough to tell a letter's strokes from a glyph's while staying fast. */
const ORIENTATION_BINS = 4;
/** Edge strengths are blurred by this radius (pixels) so strokes a pixel off still overlap. */
const EDGE_BLUR_RADIUS = 1;
/** Windows whose standard deviation is below this are flat (no edges): skipped without correlating. */
const MIN_WINDOW_STD = 0.06;
/** Template values below this share of its maximum are treated as zero (they barely move the score). */
const SPARSE_CUTOFF = 0.05;

/**
 * Sobel gradients binned by orientation modulo 180° (soft-assigned to the two nearest bins). Orientation
 * modulo 180° and magnitude are the same for dark-on-light and light-on-dark, which is what makes matching
 * survive theme changes; keeping orientation apart is what tells a glyph from a letter of similar size.
 */
function orientedEdges(image) {
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

function blurEdges(edges, radius) {
  return {
    width: edges.width,
    height: edges.height,
    channels: edges.channels.map((data) => boxBlur({ width: edges.width, height: edges.height, data }, radius).data),
  };
}

/** Separable box blur of the given radius (tolerates small differences in stroke position and weight). */
function boxBlur(image, radius) {
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

function clampIndex(i, length) {
  return i < 0 ? 0 : i >= length ? length - 1 : i;
}

/** 2×2 average: half the resolution. */
function halve(image) {
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

/**
 * An edge image prepared for correlation: the channels one after another in one array, and the integrals of
 * their per-pixel sum and sum of squares. Kept in shared memory, so handing a screen to a worker copies nothing;
 * `edges.channels` are views into `planes`.
 */
function toSearchImage(edges) {
  const { width, height, channels } = edges;
  const stride = width + 1;
  const sum = new Float64Array(new SharedArrayBuffer(stride * (height + 1) * 8));
  const squares = new Float64Array(new SharedArrayBuffer(stride * (height + 1) * 8));
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
  const plane = width * height;
  const planes = new Float32Array(new SharedArrayBuffer(plane * channels.length * 4));
  channels.forEach((channel, c) => planes.set(channel, c * plane));
  const views = channels.map((_, c) => planes.subarray(c * plane, (c + 1) * plane));
  return { edges: { width, height, channels: views }, planes, sum, squares };
}

/** A screen's grey image at 1 px/pt → search images at 1 px/pt (fine) and 0.5 (coarse). */
function screenSearchImages(fine) {
  return {
    fine: toSearchImage(blurEdges(orientedEdges(fine), EDGE_BLUR_RADIUS)),
    coarse: toSearchImage(blurEdges(orientedEdges(halve(fine)), EDGE_BLUR_RADIUS)),
  };
}

/** A template's blurred edge map at a pixel size. */
function templateEdges(template, width, height) {
  return blurEdges(orientedEdges(resizeGray(template, width, height)), EDGE_BLUR_RADIUS);
}

/** Correlation score maps of many jobs against one target; each template's edge map is built once per size. */
function scoreJobs(target, jobs) {
  const edgesBySource = new Map();
  return jobs.map((job) => {
    let bySize = edgesBySource.get(job.template);
    if (!bySize) edgesBySource.set(job.template, (bySize = new Map()));
    const key = `${job.width}x${job.height}`;
    let edges = bySize.get(key);
    if (!edges) bySize.set(key, (edges = templateEdges(job.template, job.width, job.height)));
    return correlationScores(target, edges, job.window);
  });
}

/**
 * Zero-normalized cross-correlation of `template` at every top-left position of `target` inside `window`,
 * over all orientation channels together. Flat windows score -1. The numerator only visits the template's
 * non-zero pixels (edge templates are sparse): Σ I·(T−T̄) = Σ I·T − T̄·Σ I. Undefined when nothing can match.
 */
function correlationScores(target, template, window) {
  const W = target.edges.width;
  const H = target.edges.height;
  const { width: w, height: h } = template;
  if (w > W || h > H || w < 3 || h < 3) return undefined;
  const channelCount = template.channels.length;
  const n = w * h * channelCount;
  let templateSum = 0;
  for (const channel of template.channels) for (let i = 0; i < w * h; i++) templateSum += channel[i];
  const templateMean = templateSum / n;
  let templateNorm = 0;
  for (const channel of template.channels) for (let i = 0; i < w * h; i++) templateNorm += (channel[i] - templateMean) ** 2;
  templateNorm = Math.sqrt(templateNorm);
  if (templateNorm === 0) return undefined;

  // Non-zero template pixels as offsets into the image's concatenated planes; faint blur tails are dropped.
  let templateMax = 0;
  for (const channel of template.channels) for (let i = 0; i < w * h; i++) templateMax = Math.max(templateMax, channel[i]);
  const cutoff = templateMax * SPARSE_CUTOFF;
  const offsetList = [];
  const valueList = [];
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
  if (x1 <= x0 || y1 <= y0) return undefined;
  const scoreWidth = x1 - x0;
  const scores = new Float32Array(scoreWidth * (y1 - y0)).fill(-1);
  const stride = W + 1;
  const S = target.sum;
  const Q = target.squares;
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
  return { scores, x0, y0, width: scoreWidth, height: y1 - y0 };
}

/** Area-average (down) / bilinear (up) resampling of a small grey image. */
function resizeGray(image, width, height) {
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
        const at = (xx, yy) =>
          image.data[Math.min(image.height - 1, yy) * image.width + Math.min(image.width - 1, xx)];
        out[y * width + x] =
          (1 - ax) * (1 - ay) * at(ix, iy) + ax * (1 - ay) * at(ix + 1, iy) + (1 - ax) * ay * at(ix, iy + 1) + ax * ay * at(ix + 1, iy + 1);
      }
    }
  }
  return { width, height, data: out };
}

module.exports = {
  orientedEdges,
  blurEdges,
  resizeGray,
  templateEdges,
  toSearchImage,
  screenSearchImages,
  correlationScores,
  scoreJobs,
};

