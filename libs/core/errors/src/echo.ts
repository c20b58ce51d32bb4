/**
 * The one rule for client text an error repeats back (unknown field names, paths, ids): each name is short,
 * a list names a few and counts the rest, and a whole public text has a ceiling. A hostile client can send a
 * megabyte of names; the answer stays small and its cost linear.
 */

/** Longest name or path an error repeats, in characters. */
export const MAX_ECHOED_LENGTH = 64;
/** Most names (or field issues) an error lists; the rest are counted ("and 12 more"). */
export const MAX_LISTED = 20;
/** Longest message or hint a client receives. */
export const MAX_PUBLIC_TEXT_LENGTH = 4_000;

const ELLIPSIS = '…';

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** `text` cut to at most `max` characters (ending with "…" when cut), never between a surrogate pair. */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - ELLIPSIS.length;
  if (end > 0 && isHighSurrogate(text.charCodeAt(end - 1)) && isLowSurrogate(text.charCodeAt(end))) end -= 1;
  return text.slice(0, end) + ELLIPSIS;
}

/** A client-given name or path as an error may repeat it: lone surrogates replaced, at most 64 characters. */
export function echoName(name: string): string {
  return wellFormed(truncateText(name, MAX_ECHOED_LENGTH));
}

/** At most `max` items and how many were left out. */
export function firstItems<T>(items: readonly T[], max = MAX_LISTED): { shown: T[]; more: number } {
  return { shown: items.slice(0, max), more: Math.max(0, items.length - max) };
}

/** Items for a message, and how many were left out: `a, b, c` or `a, b, c and 17 more`. */
export function withMore(shown: readonly string[], more: number, separator = ', '): string {
  return more > 0 ? `${shown.join(separator)} and ${more} more` : shown.join(separator);
}

/** Client-given names for a message: the first `max`, each cut by `echoName`, then how many more. */
export function listNames(names: readonly string[], separator = ', ', max = MAX_LISTED): string {
  const { shown, more } = firstItems(names, max);
  return withMore(shown.map(echoName), more, separator);
}

/** Lone surrogates become U+FFFD so the text encodes the same way everywhere (JSON, UTF-8, MCP). */
function wellFormed(text: string): string {
  let result = '';
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isHighSurrogate(code) && isLowSurrogate(text.charCodeAt(i + 1))) {
      i += 1;
    } else if (isHighSurrogate(code) || isLowSurrogate(code)) {
      result += text.slice(start, i) + '\ufffd';
      start = i + 1;
    }
  }
  return start === 0 ? text : result + text.slice(start);
}
