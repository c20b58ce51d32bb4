import { compactText, normalizeSpaces, tokenize } from '@apex/port';
import { foldConfusables } from './normalize';

/** Edit distance with a two-row table (O(n·m) time, O(m) memory). */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let previous = new Array<number>(b.length + 1);
  let current = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, substitution);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length];
}

/** 1 for equal strings, 0 for nothing in common. */
export function normalizedSimilarity(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  if (longest === 0) return 1;
  return 1 - levenshtein(a, b) / longest;
}

export interface MatchOptions {
  exact?: boolean;
  caseSensitive?: boolean;
  /** The candidate came from OCR: forgive the characters OCR confuses. */
  ocr?: boolean;
}

/** Scores below this are not matches. */
export const MIN_TEXT_SCORE = 0.75;

/**
 * How well `candidate` matches `query`, 0..1.
 * - exact: whole text equal after collapsing whitespace (and folding case unless caseSensitive) → 1, else 0.
 * - otherwise: 1 for the same letters and digits ("Wi-Fi" = "WiFi"); a fuzzy score from the edit distance; or,
 *   when the candidate contains the query as whole consecutive words ("Bluetooth" in "Bluetooth, On"), a
 *   score between 0.85 and 0.95 growing with how much of the candidate the query covers.
 */
export function textMatchScore(query: string, candidate: string, options: MatchOptions = {}): number {
  const caseSensitive = options.caseSensitive ?? false;
  if (options.exact) {
    return normalizeSpaces(query, caseSensitive) === normalizeSpaces(candidate, caseSensitive) ? 1 : 0;
  }
  const q = compactText(query, caseSensitive);
  const c = compactText(candidate, caseSensitive);
  if (q.length === 0 || c.length === 0) return 0;
  if (q === c) return 1;

  let score = normalizedSimilarity(q, c);
  if (options.ocr && !caseSensitive) {
    score = Math.max(score, 0.97 * normalizedSimilarity(foldConfusables(q), foldConfusables(c)));
  }
  // Short queries need (near) equality: one wrong letter in "On" is another word.
  if (q.length <= 3 && score < 1) score = Math.min(score, MIN_TEXT_SCORE - 0.01);

  const containment = containedWordsScore(query, candidate, caseSensitive);
  return Math.max(score, containment);
}

/** The query's words appear consecutively inside the candidate's words. */
function containedWordsScore(query: string, candidate: string, caseSensitive: boolean): number {
  const q = tokenize(query, caseSensitive);
  const c = tokenize(candidate, caseSensitive);
  if (q.length === 0 || c.length <= q.length) return 0;
  for (let start = 0; start + q.length <= c.length; start++) {
    if (q.every((token, k) => token === c[start + k])) {
      const coverage = q.join('').length / c.join('').length;
      return 0.85 + 0.1 * coverage;
    }
  }
  return 0;
}
