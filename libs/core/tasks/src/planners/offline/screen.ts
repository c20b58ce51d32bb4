import { GLYPH_SYNONYMS, type GlyphName } from '@apex/perception';
import { isInteractive } from '@apex/port';
import { isOn, type Observation, type ScreenElement } from '../../agent/observation';
import { closeness, closestLabel, squash, type LabelMatch } from './labels';

/** Something to tap: an element of the description, or text the screen shows. */
export interface Spot {
  center: { x: number; y: number };
  /** An element's ref (text read from the screen has none). */
  ref?: string;
  label?: string;
  role: string;
}

export const TEXT_INPUT_ROLES = ['textField', 'searchField', 'secureTextField'];

/**
 * The element (or, with `includeText`, the shown text) `target` names, by closest label. Interactive
 * elements come first, so a row and its own title count as one candidate.
 */
export function locate(obs: Observation, target: string, options: { roles?: readonly string[]; includeText?: boolean; minCloseness?: number } = {}): LabelMatch<Spot> {
  const elements = obs.screen.elements.filter((e) => !e.disabled && (!options.roles || options.roles.includes(e.role)));
  const ranked: Spot[] = [...elements.filter((e) => isInteractive(e.role)), ...elements.filter((e) => !isInteractive(e.role))];
  if (options.includeText) for (const t of obs.screen.staticText ?? []) ranked.push({ center: t.center, label: t.text, role: 'text' });
  return closestLabel(target, ranked, (s) => s.label, options.minCloseness);
}

/** The matched spot, or undefined when nothing (or more than one thing) matches. */
export function locateOne(obs: Observation, target: string, options: Parameters<typeof locate>[2] = {}): Spot | undefined {
  const match = locate(obs, target, options);
  return match.kind === 'match' ? match.item : undefined;
}

/** The switch named `target`: by its own label, else the switch on the same row as the matching label. */
export function findSwitch(obs: Observation, target: string): LabelMatch<ScreenElement> {
  const direct = locate(obs, target, { roles: ['switch'] });
  if (direct.kind !== 'none') return direct as LabelMatch<ScreenElement>;
  // A row's own element first; else a text beside the switch (a list item that is text only).
  let label = locate(obs, target);
  if (label.kind === 'none') label = locate(obs, target, { includeText: true });
  if (label.kind !== 'match') return label as LabelMatch<ScreenElement>;
  const sw = obs.screen.elements.find((e) => e.role === 'switch' && Math.abs(e.center.y - label.item.center.y) < 22);
  return sw ? { kind: 'match', item: sw, label: label.label } : { kind: 'none' };
}

export function switchIsOn(sw: ScreenElement): boolean {
  return isOn(sw.value);
}

/** Whether the foreground app is the one named (its name, a synonym, a one-letter typo, or its id). */
export function isApp(obs: Observation, name: string): boolean {
  const app = obs.screen.app;
  if (!app) return false;
  return closeness(name, app.name) >= 3 || app.appId.toLowerCase() === name.toLowerCase();
}

/** Whether `target` shows on the screen: an element's label or a shown text, matched loosely. */
export function shows(obs: Observation, target: string): boolean {
  return locate(obs, target, { includeText: true }).kind !== 'none';
}

/** The built-in glyph `target` names ("trash", "bin", "gear", "magnifying glass"…), if any. */
export function glyphNamed(target: string): GlyphName | undefined {
  const wanted = squash(target.replace(/\b(?:icon|button|glyph|symbol)\b/gi, ''));
  for (const [glyph, words] of Object.entries(GLYPH_SYNONYMS) as [GlyphName, readonly string[]][]) {
    if (words.some((w) => squash(w) === wanted)) return glyph;
  }
  return undefined;
}

export function pickTextInput(obs: Observation, field: string | undefined): ScreenElement | undefined {
  if (field) {
    const named = locate(obs, field, { roles: TEXT_INPUT_ROLES });
    if (named.kind === 'match') return named.item as ScreenElement;
  }
  return obs.screen.elements.find((e) => TEXT_INPUT_ROLES.includes(e.role) && !e.disabled);
}

export function focusedInputMatches(obs: Observation, field: string): boolean {
  const focused = obs.screen.elements.find((e) => e.focused && TEXT_INPUT_ROLES.includes(e.role));
  return focused === undefined || closeness(field, focused.label) >= 2 || closeness(field, focused.role) >= 2;
}

/**
 * "the 9:30 AM alarm" on a screen titled Alarm(s), "the alarm at 7:00 AM": the item without the word that names
 * the list the screen shows (its title, or the selected tab); undefined when `target` has no such word.
 */
export function withoutListNoun(obs: Observation, target: string): string | undefined {
  const lists = [screenTitle(obs), ...obs.screen.elements.filter((e) => e.selected).map((e) => e.label)].filter((l): l is string => Boolean(l));
  const names = (word: string) => lists.some((l) => closeness(word.replace(/s$/i, ''), l.replace(/s$/i, '')) >= 5);
  const words = target.trim().split(/\s+/);
  if (words.length < 2) return undefined;
  if (names(words[words.length - 1])) return words.slice(0, -1).join(' ');
  const m = target.trim().match(/^(\S+)\s+(?:at|for|called|named|of)\s+(.+)$/i);
  return m && names(m[1]) ? m[2] : undefined;
}

/** The title a screen shows (its first shown text, e.g. the navigation bar's). */
export function screenTitle(obs: Observation): string | undefined {
  return obs.screen.staticText?.[0]?.text;
}

/** "A" or "A" and "B": for messages that name candidates. */
export function quoteList(labels: readonly string[]): string {
  const quoted = labels.slice(0, 4).map((l) => `"${l}"`);
  const more = labels.length > 4 ? ` (and ${labels.length - 4} more)` : '';
  return quoted.length <= 1 ? `${quoted.join('')}${more}` : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}${more}`;
}
