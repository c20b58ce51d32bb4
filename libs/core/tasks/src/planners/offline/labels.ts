/**
 * Loose-but-safe matching of the names people write against the labels a screen shows: case, punctuation,
 * hyphens, spaces and "and"/"&" do not count (`wifi` = `Wi-Fi`), common synonyms of system names are known,
 * and a one-letter typo is forgiven. The closest label wins only when it is clearly closest: two different
 * labels equally close are reported as ambiguous, never guessed between.
 */

import { compactText, tokenize } from '@apex/port';

/** System names and the words people use for them (canonical label first). */
const SYNONYMS: readonly (readonly string[])[] = [
  ['Wi-Fi', 'wifi', 'wi fi', 'wlan', 'wireless', 'wireless network'],
  ['Bluetooth', 'bt', 'blue tooth'],
  ['Airplane Mode', 'airplane', 'aeroplane mode', 'flight mode', 'plane mode'],
  ['Cellular', 'mobile data', 'cellular data', 'cell data'],
  ['Personal Hotspot', 'hotspot', 'tethering'],
  ['Settings', 'preferences', 'system settings', 'settings app'],
  ['Photos', 'gallery', 'camera roll', 'pictures', 'photo gallery'],
  ['Safari', 'browser', 'web browser'],
  ['Messages', 'sms', 'texts', 'imessage', 'text messages'],
  ['Maps', 'map'],
  ['Notes', 'note', 'notepad'],
  ['Privacy & Security', 'privacy', 'security'],
  ['Display & Brightness', 'display', 'brightness'],
  ['Sounds & Haptics', 'sound', 'sounds', 'haptics', 'volume'],
  ['Software Update', 'update', 'updates', 'ios update', 'system update'],
  ['Face ID & Passcode', 'passcode', 'face id'],
  ['iPhone Storage', 'storage'],
  ['Notifications', 'notification'],
];

/**
 * Parts of an app that name the app (opening "the timer" opens Clock), but not each other: "timer" is no
 * name of the Alarms tab.
 */
const PARTS: readonly (readonly string[])[] = [['Clock', 'alarm', 'alarms', 'timer', 'timers', 'stopwatch', 'world clock']];

/** Lower case, letters and digits only; "and" and "&" dropped ("Date and Time" = "Date & Time"). */
export function squash(text: string): string {
  return compactText(withoutAnd(text));
}

function words(text: string): string[] {
  return tokenize(withoutAnd(text));
}

function withoutAnd(text: string): string {
  return text.replace(/&|\band\b/gi, ' ');
}

const CANONICAL = new Map<string, string>();
for (const [label, ...aliases] of SYNONYMS) for (const alias of aliases) CANONICAL.set(squash(alias), squash(label));
const WHOLE_OF = new Map<string, string>();
for (const [label, ...parts] of PARTS) for (const part of parts) WHOLE_OF.set(squash(part), squash(label));

/** Whether `target` names a part of an app ("the stopwatch" of Clock) rather than the app itself. */
export function partOfApp(target: string): boolean {
  return WHOLE_OF.has(squash(target));
}

/** The app whose part a word of `target` names ("the alarm at 9:30" → Clock), if one does. */
export function appOfPartIn(target: string): string | undefined {
  const found = words(target).map((w) => PARTS.find(([, ...parts]) => parts.some((p) => squash(p) === squash(w))));
  return found.find((f) => f !== undefined)?.[0];
}

/** Whether `label` is the app `target` is a part of ("Clock" for "the stopwatch"). */
export function isWholeOf(target: string, label: string | undefined): boolean {
  return label !== undefined && WHOLE_OF.get(squash(target)) === squash(label);
}

/** The system name `target` stands for, squashed (itself when it is no known synonym). */
export function canonical(target: string): string {
  return CANONICAL.get(squash(target)) ?? squash(target);
}

/** Whether a and b differ by one letter (inserted, removed, replaced or two neighbours swapped). */
export function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  const rest = (x: string, n: number) => x.slice(i + n);
  if (a.length === b.length) {
    if (rest(a, 1) === rest(b, 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && rest(a, 2) === rest(b, 2);
  }
  return a.length > b.length ? rest(a, 1) === rest(b, 0) : rest(a, 0) === rest(b, 1);
}

/**
 * How closely `label` names `target`, best first: 6 same text, 5 a synonym, 4 the label starts with the
 * target's words ("Privacy" → "Privacy & Security"), 3 a one-letter typo, 2 the label holds the target's
 * words ("Security"), 0 no match. Short targets (under 3 letters) must match exactly.
 */
export function closeness(target: string, label: string | undefined): number {
  if (!label) return 0;
  const t = squash(target);
  const l = squash(label);
  if (!t || !l) return 0;
  if (t === l) return 6;
  if (canonical(target) === l || canonical(label) === canonical(target) || WHOLE_OF.get(t) === l) return 5;
  if (t.length < 3) return 0;
  const tw = words(target);
  const lw = words(label);
  if (startsWithWords(lw, tw)) return 4;
  if (t.length >= 5 && (oneEditApart(t, l) || oneEditApart(canonical(target), l))) return 3;
  if (t.length >= 4 && containsWords(lw, tw)) return 2;
  return 0;
}

function startsWithWords(label: string[], target: string[]): boolean {
  return target.length < label.length && target.every((w, i) => label[i] === w);
}

function containsWords(label: string[], target: string[]): boolean {
  for (let i = 1; i + target.length <= label.length; i++) if (target.every((w, k) => label[i + k] === w)) return true;
  return false;
}

export type LabelMatch<T> =
  | { kind: 'match'; item: T; label: string }
  | { kind: 'ambiguous'; labels: string[] }
  | { kind: 'none' };

/**
 * The candidate whose label is closest to `target`. Candidates with the same label (a row and its switch)
 * count once; the first of them in `candidates` order wins, so callers list preferred roles first.
 */
export function closestLabel<T>(target: string, candidates: readonly T[], labelOf: (item: T) => string | undefined, minCloseness = 2): LabelMatch<T> {
  let best = 0;
  const byLabel = new Map<string, { item: T; label: string }>();
  for (const item of candidates) {
    const label = labelOf(item);
    const score = closeness(target, label);
    if (score < minCloseness || score < best || !label) continue;
    if (score > best) {
      best = score;
      byLabel.clear();
    }
    const key = squash(label);
    if (!byLabel.has(key)) byLabel.set(key, { item, label });
  }
  const found = [...byLabel.values()];
  if (found.length === 0) return { kind: 'none' };
  if (found.length === 1) return { kind: 'match', ...found[0] };
  return { kind: 'ambiguous', labels: found.map((f) => f.label) };
}
