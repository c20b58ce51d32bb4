/** Types of pixel-kernels.js (plain JavaScript so worker threads can load it as is). */

/** A single-channel float image, row-major, values 0..1 (or edge strengths). */
export interface GrayImage {
  width: number;
  height: number;
  data: Float32Array;
}

/** Edge strength split by orientation: one channel per direction bin. */
export interface EdgeImage {
  width: number;
  height: number;
  channels: Float32Array[];
}

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

/** Pixel window (inclusive start, exclusive end) to search top-left corners in. */
export interface Window {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Correlation scores of the top-left positions x0 ≤ x < x0+width, y0 ≤ y < y0+height (row-major; -1 = flat). */
export interface ScoreMap {
  scores: Float32Array;
  x0: number;
  y0: number;
  width: number;
  height: number;
}

/** One correlation to score: a template (grey, any resolution) at a pixel size over (a window of) the target. */
export interface ScoreJob {
  template: GrayImage;
  width: number;
  height: number;
  window?: Window;
}

export function orientedEdges(image: GrayImage): EdgeImage;
export function blurEdges(edges: EdgeImage, radius: number): EdgeImage;
/** Area-average (down) / bilinear (up) resampling of a small grey image. */
export function resizeGray(image: GrayImage, width: number, height: number): GrayImage;
/** A template's blurred edge map at a pixel size. */
export function templateEdges(template: GrayImage, width: number, height: number): EdgeImage;
export function toSearchImage(edges: EdgeImage): SearchImage;
/** Fine (1 px/pt) and coarse (0.5 px/pt) search images of a screen's grey image at 1 px/pt. */
export function screenSearchImages(fine: GrayImage): { fine: SearchImage; coarse: SearchImage };
export function correlationScores(target: SearchImage, template: EdgeImage, window?: Window): ScoreMap | undefined;
/** One score map per job (undefined where nothing can match). */
export function scoreJobs(target: SearchImage, jobs: readonly ScoreJob[]): (ScoreMap | undefined)[];
