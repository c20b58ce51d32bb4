import { createHash } from 'node:crypto';
import { foldText, isInteractive } from '@apex/port';
import { ApexError } from '@apex/errors';
import type { OperationResult } from '@apex/capability';
import type { ScreenDescriptionResult } from '@apex/perception';

/** What describe_screen returned, with a fingerprint to tell screens apart. */
export interface Observation {
  screen: ScreenDescriptionResult;
  /** Equal for screens that look the same to the agent (app, alert, keyboard, elements and their values). */
  fingerprint: string;
}

export type ScreenElement = ScreenDescriptionResult['elements'][number];

/** describe_screen's answer (its whole description, typed) as an observation. */
export function observationOfResult(result: Pick<OperationResult, 'screen'>): Observation {
  if (!result.screen) throw new ApexError('internal', 'describe_screen answered without a screen description.');
  return observationOf(result.screen);
}

export function observationOf(screen: ScreenDescriptionResult): Observation {
  const essence = {
    app: screen.app?.appId,
    alert: screen.alert,
    keyboard: screen.keyboardVisible,
    elements: screen.elements.map((e) => [e.role, e.label, e.value, Math.round(e.center.x), Math.round(e.center.y), e.selected, e.focused]),
    omitted: screen.omittedElements,
    text: (screen.staticText ?? []).map((t) => t.text),
  };
  return { screen, fingerprint: createHash('sha1').update(JSON.stringify(essence)).digest('hex').slice(0, 16) };
}

const SUMMARY_MAX_CHARS = 400;

/** A short, one-line account of a screen for the step log. */
export function summarizeObservation(observation: Observation): string {
  const { screen } = observation;
  const parts: string[] = [];
  parts.push(screen.app ? `${screen.app.name ?? screen.app.appId}` : 'unknown app');
  const title = screen.staticText?.[0]?.text;
  if (title && title !== screen.app?.name) parts.push(`"${title}"`);
  if (screen.alert) parts.push(`alert "${screen.alert.title ?? screen.alert.message ?? ''}" [${screen.alert.buttons.join(', ')}]`);
  if (screen.keyboardVisible) parts.push('keyboard up');
  const labels = screen.elements
    .filter((e) => e.label || e.value)
    .map((e) => (e.role === 'switch' ? `${e.label ?? '?'}=${isOn(e.value) ? 'on' : 'off'}` : (e.label ?? e.value)));
  parts.push(labels.join(', '));
  const text = parts.filter(Boolean).join(' | ');
  return text.length > SUMMARY_MAX_CHARS ? `${text.slice(0, SUMMARY_MAX_CHARS - 1)}…` : text;
}

/** Switch values arrive normalized by the driver ("1"/"0"), but accept the usual spellings. */
export function isOn(value: string | undefined): boolean {
  return value !== undefined && /^(?:1|on|true|yes)$/i.test(value.trim());
}

/** How well an element's label (or value) names `target`: 3 exact, 2 starts with, 1 contains, 0 not at all. */
export function matchScore(target: string, text: string | undefined): number {
  if (!text) return 0;
  const t = foldText(target);
  const s = foldText(text);
  if (!t) return 0;
  if (s === t) return 3;
  if (s.startsWith(t) || (t.startsWith(s) && s.length >= 3)) return 2;
  if (s.includes(t)) return 1;
  return 0;
}

/** The element best named by `target`, preferring the given roles on ties. */
export function findElement(
  observation: Observation,
  target: string,
  options: { roles?: readonly string[]; minScore?: number } = {},
): ScreenElement | undefined {
  const minScore = options.minScore ?? 1;
  let best: { element: ScreenElement; score: number } | undefined;
  for (const element of observation.screen.elements) {
    if (options.roles && !options.roles.includes(element.role)) continue;
    const score = Math.max(matchScore(target, element.label), matchScore(target, element.value) - 1);
    if (score < minScore || element.disabled) continue;
    const rank = score * 10 + (isInteractive(element.role) ? 1 : 0);
    if (!best || rank > best.score) best = { element, score: rank };
  }
  return best?.element;
}

/** Whether `text` is on the screen (an element's label or value, or text read from the pixels). */
export function screenHasText(observation: Observation, text: string): boolean {
  const { screen } = observation;
  return (
    screen.elements.some((e) => matchScore(text, e.label) > 0 || matchScore(text, e.value) > 0) ||
    (screen.staticText ?? []).some((t) => matchScore(text, t.text) > 0) ||
    screen.ocrText.some((t) => matchScore(text, t.text) > 0) ||
    foldText(screen.text).includes(foldText(text))
  );
}
