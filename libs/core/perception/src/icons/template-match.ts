import { iou } from '../geometry';
import type { ScoreMap } from '../workers/pixel-kernels';

export type { SearchImage, Window } from '../workers/pixel-kernels';

/** A template match, in the pixels of the image searched. */
export interface Hit {
  x: number;
  y: number;
  width: number;
  height: number;
  score: number;
}

/** The local maxima of a score map scoring at least `minScore`, as hits of the template's size in pixels. */
export function hitsOf(map: ScoreMap | undefined, size: { width: number; height: number }, minScore: number): Hit[] {
  if (!map) return [];
  const { scores, x0, y0, width: scoreWidth, height: rows } = map;
  const hits: Hit[] = [];
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < scoreWidth; x++) {
      const s = scores[y * scoreWidth + x];
      if (s < minScore || !isLocalMaximum(scores, scoreWidth, rows, x, y, s)) continue;
      hits.push({ x: x + x0, y: y + y0, width: size.width, height: size.height, score: Math.min(1, s) });
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
