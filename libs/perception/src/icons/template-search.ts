import type { Rect } from '@apex/capability';
import type { ScalableTemplate } from './scalable-template';
import type { ScreenEdges } from './screen-edges';
import { correlate, nonMaximumSuppression, type Hit, type SearchImage, type Window } from './template-match';

/** Coarse candidates may score this much below the threshold and still be refined. */
const COARSE_SLACK = 0.2;
const MAX_REFINED_CANDIDATES = 40;
const REFINE_RADIUS_PX = 3;
const REFINE_SIZE_FACTORS = [0.9, 1, 1.1];

/**
 * Multi-scale, coarse-to-fine search of one template: every width in `widthsPt` is tried on the half-resolution
 * edge map, the best candidates are re-scored on the full-resolution map (±3 px, ±10 % size), and overlapping
 * results are suppressed so each occurrence is reported once. Results in points.
 */
export function searchTemplate(
  edges: ScreenEdges,
  template: ScalableTemplate,
  widthsPt: number[],
  minScore: number,
  region?: Rect,
): Hit[] {
  const coarseHits: Hit[] = [];
  for (const widthPt of widthsPt) {
    const w = Math.round(widthPt / 2);
    const h = Math.max(3, Math.round((widthPt * template.aspect) / 2));
    const hits = correlate(edges.coarse, template.edgesAt(w, h), minScore - COARSE_SLACK, windowFor(region, 0.5, w, h));
    coarseHits.push(...hits);
  }
  const candidates = nonMaximumSuppression(coarseHits, 0.3).slice(0, MAX_REFINED_CANDIDATES);
  const refined = candidates
    .map((candidate) => refineAt(edges.fine, template, candidate.x * 2, candidate.y * 2, candidate.width * 2))
    .filter((hit): hit is Hit => hit !== undefined && hit.score >= minScore);
  return nonMaximumSuppression(refined, 0.3);
}

/** The best full-resolution score of `template` around a position (pixels = points at 1 px/pt). */
export function refineAt(fine: SearchImage, template: ScalableTemplate, x: number, y: number, widthPx: number): Hit | undefined {
  let best: Hit | undefined;
  for (const factor of REFINE_SIZE_FACTORS) {
    const w = Math.max(3, Math.round(widthPx * factor));
    const h = Math.max(3, Math.round(widthPx * factor * template.aspect));
    const dx = Math.round((widthPx - w) / 2);
    const window: Window = {
      x0: x + dx - REFINE_RADIUS_PX,
      y0: y + dx - REFINE_RADIUS_PX,
      x1: x + dx + REFINE_RADIUS_PX + 1,
      y1: y + dx + REFINE_RADIUS_PX + 1,
    };
    for (const hit of correlate(fine, template.edgesAt(w, h), -1, window)) {
      if (!best || hit.score > best.score) best = hit;
    }
  }
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
