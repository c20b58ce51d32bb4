import type { Point } from '@apex/port';
import { matchScore, type Observation } from '../agent/observation';
import type { Selector } from './flow-schema';

/** Something on the screen a selector can name: an element or a line of text, with where to touch it. */
export interface Candidate {
  description: string;
  center: Point;
}

export type Resolution =
  | { kind: 'found'; candidate: Candidate; source: 'tree' | 'pixels' | 'point' }
  | { kind: 'missing' }
  | { kind: 'ambiguous'; candidates: Candidate[] };

/** A finder's match, as find_text / find_icon return it. */
export interface FinderMatch {
  text?: string;
  center: Point;
  /** Where the finder found it: the tree, or the pixels (OCR, an icon's template or glyph). */
  source?: 'ui-tree' | 'ocr' | 'template' | 'library';
}

/** Reads a selector back as a person would write it, for errors and the step log. */
export function describeSelector(selector: Selector): string {
  if (selector.point) return `the point (${selector.point.x}, ${selector.point.y})`;
  const parts: string[] = [];
  if (selector.text !== undefined) parts.push(`text "${selector.text}"`);
  if (selector.label !== undefined) parts.push(`label "${selector.label}"`);
  if (selector.icon !== undefined) parts.push(`icon "${selector.icon}"`);
  if (selector.role !== undefined) parts.push(`role ${selector.role}`);
  if (selector.index !== undefined) parts.push(`index ${selector.index}`);
  return parts.join(', ');
}

/**
 * The candidates a selector names in a description of the screen, best first: for text, the elements whose
 * label or value equals it (then starts with it, then contains it: only the best tier counts), else the
 * screen's other text at that tier; for a label, the elements with exactly that label; for a role, every
 * element of it. In reading order (top to bottom, left to right).
 */
export function treeCandidates(selector: Selector, observation: Observation): Candidate[] {
  const { elements, staticText = [] } = observation.screen;
  const ofRole = selector.role ? elements.filter((e) => e.role === selector.role) : elements;
  const named = (e: (typeof elements)[number]): Candidate => ({ description: `${e.role} "${e.label ?? e.value ?? ''}" at (${e.center.x}, ${e.center.y})`, center: e.center });
  if (selector.icon !== undefined) return readingOrder(ofRole.filter((e) => e.icon === selector.icon || (e.label !== undefined && matchScore(selector.icon as string, e.label) === 3)).map(named));
  if (selector.label !== undefined) return readingOrder(ofRole.filter((e) => matchScore(selector.label as string, e.label) === 3).map(named));
  if (selector.text === undefined) return readingOrder(ofRole.map(named));
  const target = selector.text;
  for (const tier of [3, 2, 1]) {
    const found = ofRole.filter((e) => !e.disabled && (matchScore(target, e.label) === tier || matchScore(target, e.value) === tier)).map(named);
    if (found.length > 0) return readingOrder(found);
    if (selector.role !== undefined) continue;
    const text = staticText.filter((t) => matchScore(target, t.text) === tier).map((t) => ({ description: `text "${t.text}" at (${t.center.x}, ${t.center.y})`, center: t.center }));
    if (text.length > 0) return readingOrder(text);
  }
  return [];
}

/** Picks one candidate: by `index` when given, else the only one — several without an index is ambiguous. */
export function choose(selector: Selector, candidates: readonly Candidate[], source: 'tree' | 'pixels'): Resolution {
  if (selector.index !== undefined) {
    const candidate = candidates[selector.index];
    return candidate ? { kind: 'found', candidate, source } : { kind: 'missing' };
  }
  if (candidates.length === 1) return { kind: 'found', candidate: candidates[0] as Candidate, source };
  return candidates.length === 0 ? { kind: 'missing' } : { kind: 'ambiguous', candidates: [...candidates] };
}

/**
 * A finder's matches as candidates: for text, only those of the best tier (the text itself before text that
 * starts with it or contains it), as in the tree. `pixels` when any of them was read from the pixels.
 */
export function finderCandidates(matches: readonly FinderMatch[], target: string | undefined): { candidates: Candidate[]; source: 'tree' | 'pixels' } {
  let kept = [...matches];
  if (target !== undefined) {
    const tier = Math.max(0, ...matches.map((m) => matchScore(target, m.text)));
    kept = matches.filter((m) => matchScore(target, m.text) === tier);
  }
  const inPixels = (m: FinderMatch) => m.source !== undefined && m.source !== 'ui-tree';
  const what = target === undefined ? 'icon' : 'text';
  const candidates = kept.map((m) => ({
    description: `${what}${m.text ? ` "${m.text}"` : ''}${inPixels(m) ? ' seen in the pixels' : ''} at (${Math.round(m.center.x)}, ${Math.round(m.center.y)})`,
    center: m.center,
  }));
  return { candidates: readingOrder(candidates), source: kept.some(inPixels) ? 'pixels' : 'tree' };
}

function readingOrder(candidates: Candidate[]): Candidate[] {
  return candidates.sort((a, b) => a.center.y - b.center.y || a.center.x - b.center.x);
}
