import { tokenize, type Rect, type UiNode } from '@apex/port';
import { overlapOfSmaller, roundedCenter, roundRect, unionOf } from '../geometry';
import type { OcrPage } from '../ocr/ocr-types';
import type { TextMatch } from '../types';
import { MIN_TEXT_SCORE, textMatchScore, type MatchOptions } from './similarity';
import { visibleNodes } from '../tree/visible';

export interface TextSearch {
  text: string;
  exact?: boolean;
  caseSensitive?: boolean;
  /** Points; matches must have their centre inside. */
  region?: Rect;
}

/** Texts a node shows: its label, the value of text-bearing roles, a field's placeholder. */
export function nodeTexts(node: UiNode): string[] {
  const texts: string[] = [];
  if (node.label) texts.push(node.label);
  const showsValue = node.role !== 'switch' && node.role !== 'slider' && node.role !== 'secureTextField';
  if (node.value && showsValue && node.value !== node.label) texts.push(node.value);
  if (node.placeholder && !node.value) texts.push(node.placeholder);
  return texts;
}

/** Matches among the visible, on-screen nodes of the tree. */
/** `refOf` names each matched node with its element ref. */
export function findTextInTree(root: UiNode, screen: Rect, search: TextSearch, refOf?: (node: UiNode) => string | undefined): TextMatch[] {
  const options: MatchOptions = { exact: search.exact, caseSensitive: search.caseSensitive };
  const matches: TextMatch[] = [];
  for (const { node, bounds } of visibleNodes(root, screen)) {
    if (search.region && !centerInside(bounds, search.region)) continue;
    for (const text of nodeTexts(node)) {
      const score = textMatchScore(search.text, text, options);
      if (score >= MIN_TEXT_SCORE) {
        matches.push(withRef(textMatch(text, bounds, score, 'ui-tree'), refOf?.(node)));
        break;
      }
    }
  }
  return dedupe(matches);
}

/** Matches in OCR lines: single words and phrases of consecutive words on one line. */
export function findTextInOcr(page: OcrPage, search: TextSearch): TextMatch[] {
  const options: MatchOptions = { exact: search.exact, caseSensitive: search.caseSensitive, ocr: true };
  const queryWords = Math.max(1, tokenize(search.text).length);
  const minWindow = Math.max(1, queryWords - 1);
  const maxWindow = queryWords + 1;
  const matches: TextMatch[] = [];
  for (const line of page.lines) {
    const candidates: { start: number; end: number; score: number; confidence: number }[] = [];
    for (let start = 0; start < line.words.length; start++) {
      for (let size = minWindow; size <= maxWindow && start + size <= line.words.length; size++) {
        const words = line.words.slice(start, start + size);
        const score = textMatchScore(search.text, words.map((w) => w.text).join(' '), options);
        if (score < MIN_TEXT_SCORE) continue;
        const ocrConfidence = words.reduce((sum, w) => sum + w.confidence, 0) / words.length;
        candidates.push({ start, end: start + size, score, confidence: score * ocrConfidence });
      }
    }
    // Best windows first; a word belongs to at most one match.
    candidates.sort((a, b) => b.confidence - a.confidence || a.end - a.start - (b.end - b.start));
    const used = new Set<number>();
    for (const candidate of candidates) {
      const indexes = range(candidate.start, candidate.end);
      if (indexes.some((i) => used.has(i))) continue;
      indexes.forEach((i) => used.add(i));
      const words = line.words.slice(candidate.start, candidate.end);
      const bounds = unionOf(words.map((w) => w.bounds));
      const match = textMatch(words.map((w) => w.text).join(' '), bounds, candidate.confidence, 'ocr');
      if (!search.region || centerInside(match.bounds, search.region)) matches.push(match);
    }
  }
  return sortMatches(matches);
}

/** Best first; ties top-to-bottom, left-to-right. */
function sortMatches(matches: TextMatch[]): TextMatch[] {
  return [...matches].sort(
    (a, b) => b.confidence - a.confidence || a.bounds.y - b.bounds.y || a.bounds.x - b.bounds.x,
  );
}

/** The same text found on nested nodes (a cell and its label): keep the better, then the tighter one. */
function dedupe(matches: TextMatch[]): TextMatch[] {
  const ordered = [...matches].sort(
    (a, b) => b.confidence - a.confidence || a.bounds.width * a.bounds.height - b.bounds.width * b.bounds.height,
  );
  const kept: TextMatch[] = [];
  for (const match of ordered) {
    const duplicate = kept.some(
      (k) => overlapOfSmaller(k.bounds, match.bounds) > 0.5 && textMatchScore(k.text, match.text) >= 0.95,
    );
    if (!duplicate) kept.push(match);
  }
  return sortMatches(kept);
}

function withRef<T extends { ref?: string }>(match: T, ref: string | undefined): T {
  return ref === undefined ? match : { ref, ...match };
}

function textMatch(text: string, bounds: Rect, confidence: number, source: TextMatch['source']): TextMatch {
  return {
    text,
    bounds: roundRect(bounds),
    center: roundedCenter(bounds),
    confidence: Math.round(Math.max(0, Math.min(1, confidence)) * 1000) / 1000,
    source,
  };
}

function centerInside(bounds: Rect, region: Rect): boolean {
  const cx = bounds.x + bounds.width / 2;
  const cy = bounds.y + bounds.height / 2;
  return cx >= region.x && cy >= region.y && cx <= region.x + region.width && cy <= region.y + region.height;
}

function range(start: number, end: number): number[] {
  return Array.from({ length: end - start }, (_, i) => start + i);
}
