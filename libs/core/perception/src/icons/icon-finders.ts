import type { Rect, Role, UiNode } from '@apex/port';
import { overlapOfSmaller, roundedCenter, roundRect } from '../geometry';
import { textMatchScore } from '../text/similarity';
import { visibleNodes } from '../tree/visible';
import type { PixelEngine } from '../workers/pixel-pool';
import type { IconMatch } from '../types';
import { GLYPH_NAMES, GLYPH_SYNONYMS, glyphForName, glyphLibrary, type GlyphName } from './glyph-library';
import type { GrayImage } from './gray-image';
import { ScalableTemplate } from './scalable-template';
import type { ScreenEdges } from './screen-edges';
import { nonMaximumSuppression, type Hit } from './template-match';
import { searchTemplate, surroundRatio } from './template-search';

/** Glyph sizes (longer side, points) the built-in glyphs are searched at: tab-bar, toolbar, nav-bar icons. */
const LIBRARY_SIZES_PT = [16, 19, 22, 25, 29];
/** Sizes tried around a template's own size (its pixels ÷ the screen scale). */
const TEMPLATE_SIZE_FACTORS = [0.6, 0.75, 0.9, 1, 1.1, 1.25, 1.5];
/** Another glyph must beat the named one by this much at the same place to claim it. */
const COMPETITION_MARGIN = 0.02;
const ICON_ROLES: ReadonlySet<Role> = new Set<Role>(['button', 'icon', 'image', 'link', 'cell', 'key']);
const MIN_LABEL_SCORE = 0.8;

export const DEFAULT_LIBRARY_THRESHOLD = 0.6;
export const DEFAULT_TEMPLATE_THRESHOLD = 0.75;

/** Icon-like nodes whose label names `name` or one of its synonyms ("gear" finds a "Settings" button). */
export function findIconsInTree(
  root: UiNode,
  screen: Rect,
  name: string,
  region?: Rect,
  refOf?: (node: UiNode) => string | undefined,
): IconMatch[] {
  const glyph = glyphForName(name);
  const words: string[] = glyph ? [name, ...GLYPH_SYNONYMS[glyph].filter((s) => s !== name)] : [name];
  const matches: IconMatch[] = [];
  for (const { node, bounds } of visibleNodes(root, screen)) {
    if (!ICON_ROLES.has(node.role) || !node.label) continue;
    if (region && !centerIn(bounds, region)) continue;
    let score = 0;
    for (const [i, word] of words.entries()) {
      const s = textMatchScore(word, node.label) * (i === 0 ? 1 : 0.95);
      score = Math.max(score, s);
    }
    if (score >= MIN_LABEL_SCORE) {
      const ref = refOf?.(node);
      const match = iconMatch(bounds, score, 'ui-tree', node.label);
      matches.push(ref === undefined ? match : { ref, ...match });
    }
  }
  return dedupeNested(matches);
}

/**
 * Occurrences of a built-in glyph in the pixels. A place counts for the named glyph only if no other glyph of
 * the library fits it better, so a gear is not reported as a magnifier.
 */
export async function findGlyphInPixels(
  pixels: PixelEngine,
  edges: ScreenEdges,
  glyph: GlyphName,
  threshold: number,
  region?: Rect,
): Promise<IconMatch[]> {
  const matches: IconMatch[] = [];
  for (const { hit, confidence } of await glyphCandidates(pixels, edges, glyph, LIBRARY_SIZES_PT, threshold, region)) {
    if (await anyRivalFitsBetter(pixels, edges, glyph, hit)) continue;
    matches.push(iconMatch(hitRect(hit), confidence, 'library', glyph));
  }
  return matches;
}

/** Whether another glyph, at its own size and proportions, fits the place of `hit` better than `glyph`. */
async function anyRivalFitsBetter(pixels: PixelEngine, edges: ScreenEdges, glyph: GlyphName, hit: Hit): Promise<boolean> {
  const longSide = Math.max(hit.width, hit.height);
  const margin = Math.round(longSide * 0.3);
  const around: Rect = { x: hit.x - margin, y: hit.y - margin, width: hit.width + 2 * margin, height: hit.height + 2 * margin };
  const sizes = [0.7, 0.85, 1, 1.2].map((f) => Math.round(longSide * f));
  for (const other of GLYPH_NAMES) {
    if (other === glyph) continue;
    for (const template of glyphLibrary().get(other) ?? []) {
      const rivals = await searchTemplate(pixels, edges, template, sizes, hit.score + COMPETITION_MARGIN, around);
      if (rivals.some((rival) => overlapOfSmaller(hitRect(rival), hitRect(hit)) > 0.5)) return true;
    }
  }
  return false;
}

/** Places `glyph` fits at one of `sizes`; confidence = fit × isolation. */
async function glyphCandidates(
  pixels: PixelEngine,
  edges: ScreenEdges,
  glyph: GlyphName,
  sizes: number[],
  threshold: number,
  region?: Rect,
): Promise<{ hit: Hit; confidence: number }[]> {
  const templates = glyphLibrary().get(glyph) ?? [];
  const hits = await Promise.all(templates.map((template) => searchTemplate(pixels, edges, template, sizes, threshold, region)));
  return nonMaximumSuppression(hits.flat(), 0.3)
    .map((hit) => ({ hit, confidence: hit.score * isolationFactor(surroundRatio(edges.fine, hit)) }))
    .filter(({ confidence }) => confidence >= threshold);
}

/**
 * Icons stand alone; a "glyph" with edges all around it is usually a letter inside a word. 1 for an isolated
 * shape, falling to 0.4 as the surroundings get as busy as the shape itself.
 */
function isolationFactor(surroundRatio: number): number {
  return 1 - Math.min(0.6, Math.max(0, surroundRatio - 0.08) * 1.5);
}

/**
 * Which built-in glyph is drawn inside `region` (an unlabeled button's bounds), if any fits well enough:
 * used to name icon buttons the tree leaves unnamed.
 */
export async function identifyGlyph(
  pixels: PixelEngine,
  edges: ScreenEdges,
  region: Rect,
  threshold = DEFAULT_LIBRARY_THRESHOLD,
): Promise<IconMatch | undefined> {
  const sizes = LIBRARY_SIZES_PT.filter((size) => size <= Math.max(region.width, region.height) + 2);
  const perGlyph = await Promise.all(
    GLYPH_NAMES.map((glyph) => glyphCandidates(pixels, edges, glyph, sizes, threshold, region)),
  );
  let best: IconMatch | undefined;
  perGlyph.forEach((candidates, i) => {
    for (const { hit, confidence } of candidates) {
      if (!best || confidence > best.confidence) best = iconMatch(hitRect(hit), confidence, 'library', GLYPH_NAMES[i]);
    }
  });
  return best;
}

/** Occurrences of a caller's template image (grey, any theme), sized as if cut from this device's screenshots. */
export async function findTemplateInPixels(
  pixels: PixelEngine,
  edges: ScreenEdges,
  template: GrayImage,
  pixelScale: number,
  threshold: number,
  region?: Rect,
): Promise<IconMatch[]> {
  const scalable = new ScalableTemplate(template);
  const baseSize = Math.max(template.width, template.height) / pixelScale;
  const sizes = [...new Set(TEMPLATE_SIZE_FACTORS.map((f) => Math.round(baseSize * f)).filter((size) => size >= 6))];
  const hits = await searchTemplate(pixels, edges, scalable, sizes, threshold, region);
  return hits.map((hit) => iconMatch(hitRect(hit), hit.score, 'template'));
}

function hitRect(hit: Hit): Rect {
  return { x: hit.x, y: hit.y, width: hit.width, height: hit.height };
}

function iconMatch(bounds: Rect, confidence: number, source: IconMatch['source'], label?: string): IconMatch {
  const match: IconMatch = {
    bounds: roundRect(bounds),
    center: roundedCenter(bounds),
    confidence: Math.round(Math.max(0, Math.min(1, confidence)) * 1000) / 1000,
    source,
  };
  if (label !== undefined) match.label = label;
  return match;
}

/** A labeled button inside a labeled cell with the same name: keep the innermost. */
function dedupeNested(matches: IconMatch[]): IconMatch[] {
  return matches.filter(
    (m) =>
      !matches.some(
        (other) =>
          other !== m &&
          other.label === m.label &&
          other.bounds.width * other.bounds.height < m.bounds.width * m.bounds.height &&
          centerIn(other.bounds, m.bounds),
      ),
  );
}

function centerIn(bounds: Rect, region: Rect): boolean {
  const cx = bounds.x + bounds.width / 2;
  const cy = bounds.y + bounds.height / 2;
  return cx >= region.x && cy >= region.y && cx <= region.x + region.width && cy <= region.y + region.height;
}
