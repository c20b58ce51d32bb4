/**
 * What "the same text" means is @apex/port's (one module for every layer); OCR's confusable letters are
 * perception's own.
 */

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
