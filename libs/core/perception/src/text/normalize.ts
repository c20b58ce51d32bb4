/** Text normalization shared by every matcher: one place decides what "the same text" means. */

/** Collapses runs of whitespace and trims; folds case unless asked not to. */
export function normalizeSpaces(text: string, caseSensitive = false): string {
  const collapsed = text.normalize('NFKC').replace(/\s+/g, ' ').trim();
  return caseSensitive ? collapsed : collapsed.toLowerCase();
}

/** Letters and digits only, diacritics removed: "Wi-Fi" and "WiFi" become "wifi". */
export function compactText(text: string, caseSensitive = false): string {
  const stripped = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^\p{L}\p{N}]+/gu, '');
  return caseSensitive ? stripped : stripped.toLowerCase();
}

/** Words of letters and digits; "Privacy & Security" → ["privacy", "security"]. */
export function tokenize(text: string, caseSensitive = false): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((token) => token.length > 0)
    .map((token) => (caseSensitive ? token : token.toLowerCase()));
}

/** Characters OCR commonly confuses, folded to one representative (only ever used case-insensitively). */
const OCR_CONFUSABLES: Record<string, string> = {
  '0': 'o',
  '1': 'l',
  i: 'l',
  '|': 'l',
  '5': 's',
  '8': 'b',
};

export function foldConfusables(compact: string): string {
  let out = '';
  for (const ch of compact) out += OCR_CONFUSABLES[ch] ?? ch;
  return out.replace(/rn/g, 'm').replace(/vv/g, 'w');
}

/** True when the text has at least one letter or digit. */
export function hasWordCharacters(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}
