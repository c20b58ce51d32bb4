/**
 * What "the same text" means, in one place for every layer: Unicode-aware (NFKC/NFKD), diacritics dropped
 * where punctuation is ("Général" = "general" = "GÉNÉRAL"), case folded unless asked not to.
 */

/**
 * Collapses runs of whitespace and trims; folds case and diacritics unless asked not to ("GÉNÉRAL" →
 * "general"; case-sensitive, "Général" stays itself).
 */
export function normalizeSpaces(text: string, caseSensitive = false): string {
  const collapsed = text.normalize('NFKC').replace(/\s+/g, ' ').trim();
  return caseSensitive ? collapsed : stripDiacritics(collapsed).toLowerCase();
}

/** Without diacritics (NFKD, combining marks removed): "Général" → "General". */
export function stripDiacritics(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '');
}

/** Letters and digits only, diacritics removed: "Wi-Fi" and "WiFi" become "wifi", "Général" "general". */
export function compactText(text: string, caseSensitive = false): string {
  const stripped = stripDiacritics(text).replace(/[^\p{L}\p{N}]+/gu, '');
  return caseSensitive ? stripped : stripped.toLowerCase();
}

/** Words of letters and digits, diacritics removed; "Privacy & Security" → ["privacy", "security"]. */
export function tokenize(text: string, caseSensitive = false): string[] {
  return stripDiacritics(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((token) => token.length > 0)
    .map((token) => (caseSensitive ? token : token.toLowerCase()));
}

/** Words joined by single spaces, without case, diacritics or punctuation: "Date & Time " → "date time". */
export function foldText(text: string): string {
  return tokenize(text).join(' ');
}

/** True when the text has at least one letter or digit. */
export function hasWordCharacters(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}
