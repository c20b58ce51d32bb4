import type { Rect } from '@apex/port';
import type { ScoreMap } from '../workers/pixel-kernels';
import type { PixelEngine, ScoreJob } from '../workers/pixel-pool';
import type { ScalableTemplate } from './scalable-template';
import type { ScreenEdges } from './screen-edges';
import { hitsOf, nonMaximumSuppression, type Hit, type SearchImage, type Window } from './template-match';

/** Coarse candidates may score this much below the threshold and still be refined. */
const COARSE_SLACK = 0.2;
const MAX_CANDIDATES_PER_SIZE = 12;
const REFINE_RADIUS_PX = 3;
const REFINE_SIZE_FACTORS = [0.88, 0.94, 1, 1.06, 1.12];

/**
 * Multi-scale, coarse-to-fine search of one template: every size in `sizesPt` (the template's longer side,
 * in points) is tried on the half-resolution edge map, the best candidates are re-scored on the
 * full-resolution map (±3 px, ±12 % size), and overlapping results are suppressed so each occurrence is
 * reported once. Results in points. The correlations run on `pixels` (worker threads), two batches in all.
 */
export async function searchTemplate(
  pixels: PixelEngine,
  edges: ScreenEdges,
  template: ScalableTemplate,
  sizesPt: number[],
  minScore: number,
  region?: Rect,
): Promise<Hit[]> {
  const coarseJobs = sizesPt.map((sizePt): ScoreJob => {
    const widthPt = template.aspect > 1 ? sizePt / template.aspect : sizePt;
    const w = Math.max(3, Math.round(widthPt / 2));
    const h = Math.max(3, Math.round((widthPt * template.aspect) / 2));
    return { template: template.gray, width: w, height: h, window: windowFor(region, 0.5, w, h) };
  });
  const coarseMaps = await pixels.scores(edges.coarse, coarseJobs);
  // Per size: the coarse score ranks sizes poorly, so each size keeps its own best candidates.
  const candidates = coarseMaps.flatMap((map, i) =>
    nonMaximumSuppression(hitsOf(map, coarseJobs[i], minScore - COARSE_SLACK), 0.3).slice(
      0,
      MAX_CANDIDATES_PER_SIZE,
    ),
  );
  const refineJobs = candidates.map((c) => refineJobsAt(template, c.x * 2, c.y * 2, c.width * 2));
  const refineMaps = await pixels.scores(edges.fine, refineJobs.flat());
  const refined = refineJobs
    .map((jobs, i) => bestOf(jobs, refineMaps.slice(i * REFINE_SIZE_FACTORS.length, (i + 1) * REFINE_SIZE_FACTORS.length)))
    .filter((hit): hit is Hit => hit !== undefined && hit.score >= minScore);
  return nonMaximumSuppression(refined, 0.3);
}

/** Full-resolution correlations of `template` around a position (pixels = points at 1 px/pt), one per size factor. */
function refineJobsAt(template: ScalableTemplate, x: number, y: number, widthPx: number): ScoreJob[] {
  return REFINE_SIZE_FACTORS.map((factor) => {
    const w = Math.max(3, Math.round(widthPx * factor));
    const h = Math.max(3, Math.round(widthPx * factor * template.aspect));
    const dx = Math.round((widthPx - w) / 2);
    const window: Window = {
      x0: x + dx - REFINE_RADIUS_PX,
      y0: y + dx - REFINE_RADIUS_PX,
      x1: x + dx + REFINE_RADIUS_PX + 1,
      y1: y + dx + REFINE_RADIUS_PX + 1,
    };
    return { template: template.gray, width: w, height: h, window };
  });
}

/** The best-scoring local maximum over a candidate's refinement maps. */
function bestOf(jobs: ScoreJob[], maps: (ScoreMap | undefined)[]): Hit | undefined {
  let best: Hit | undefined;
  jobs.forEach((job, i) => {
    for (const hit of hitsOf(maps[i], job, -1)) {
      if (!best || hit.score > best.score) best = hit;
    }
  });
  return best;
}

function windowFor(region: Rect | undefined, pxPerPt: number, w: number, h: number): Window | undefined {
  if (!region) return undefined;
  return {
    x0: Math.floor(region.x * pxPerPt),
    y0: Math.floor(region.y * pxPerPt),
    x1: Math.ceil((region.x + region.width) * pxPerPt) - w + 1,
    y1: Math.ceil((region.y + region.height) * pxPerPt) - h + 1,
  };
}

/**
 * Edge density just around a hit relative to inside it: ~0 for an isolated icon, high for a letter inside
 * a word (its neighbours are letters too). The busier of the left and right bands counts more than the ring
 * as a whole, so the first or last letter of a word (busy on one side only) is caught too.
 */
export function surroundRatio(fine: SearchImage, hit: Hit): number {
  const margin = Math.max(2, Math.round(0.35 * Math.max(hit.width, hit.height)));
  const { x, y, width: w, height: h } = hit;
  const inside = boxSum(fine, x, y, x + w, y + h) / (w * h);
  if (inside <= 0) return 1;
  const outer = boxSum(fine, x - margin, y - margin, x + w + margin, y + h + margin);
  const ring = (outer - inside * w * h) / ((w + 2 * margin) * (h + 2 * margin) - w * h);
  const left = boxSum(fine, x - margin, y, x, y + h) / (margin * h);
  const right = boxSum(fine, x + w, y, x + w + margin, y + h) / (margin * h);
  return Math.max(ring, 0.75 * Math.max(left, right)) / inside;
}

function boxSum(image: SearchImage, x0: number, y0: number, x1: number, y1: number): number {
  const { width, height } = image.edges;
  const cx0 = Math.max(0, Math.min(width, x0));
  const cy0 = Math.max(0, Math.min(height, y0));
  const cx1 = Math.max(0, Math.min(width, x1));
  const cy1 = Math.max(0, Math.min(height, y1));
  const stride = width + 1;
  const S = image.sum;
  return S[cy1 * stride + cx1] - S[cy0 * stride + cx1] - S[cy1 * stride + cx0] + S[cy0 * stride + cx0];
}
