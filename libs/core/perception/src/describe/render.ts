import type { DescribedElement, ScreenDescription } from '../types';

/** What the text is rendered from: a description as perception builds it, or as an operation slimmed it. */
export type RenderableDescription = Pick<ScreenDescription, 'app' | 'orientation' | 'alert' | 'keyboardVisible'> & {
  screen: { width: number; height: number };
  /** Absent when none were left out. */
  omittedElements?: number;
  elements: Omit<DescribedElement, 'nodeId' | 'bounds'>[];
  staticText?: ScreenDescription['staticText'];
  ocrText: { text: string; center: { x: number; y: number } }[];
};

const MAX_LABEL_CHARS = 60;
/** An alert's words are what the user must answer: keep more of them. */
const MAX_ALERT_CHARS = 200;

/**
 * The compact text a model reads, one element per line (ref role "label" = value @x,y):
 *   Settings (com.apple.Preferences) · 393×852 pt
 *   e3 switch "Airplane Mode" = off @196,240
 * Points are rounded to whole numbers: enough to tap. Nothing is said twice: the orientation only when it is
 * landscape (the size says portrait), a title only when it is not the app's name of the first line.
 */
export function renderDescription(d: RenderableDescription): string {
  const lines: string[] = [];
  const app = d.app ? `${d.app.name ?? d.app.appId}${d.app.name ? ` (${d.app.appId})` : ''}` : 'Unknown app';
  lines.push(`${app} · ${d.screen.width}×${d.screen.height} pt${d.orientation === 'landscape' ? ' · landscape' : ''}${d.keyboardVisible ? ' · keyboard up' : ''}`);
  if (d.alert) {
    const parts = [d.alert.title, d.alert.message].filter(Boolean).map((t) => quote(t as string, MAX_ALERT_CHARS));
    lines.push(`ALERT ${parts.join(' — ')} buttons: ${d.alert.buttons.map((b) => quote(b)).join(', ') || 'none'}`);
  }
  for (const element of d.elements) lines.push(renderElement(element));
  if (d.omittedElements) lines.push(`(+${d.omittedElements} more elements not listed; raise maxElements)`);
  if (d.elements.length === 0) lines.push('(no elements)');
  const texts = (d.staticText ?? []).filter((t) => t.text !== d.app?.name);
  if (texts.length > 0) {
    lines.push('Text:');
    for (const t of texts) lines.push(`${quote(t.text)} @${Math.round(t.center.x)},${Math.round(t.center.y)}`);
  }
  if (d.ocrText.length > 0) {
    // Read from the pixels where the tree says nothing: no element, so no ref (tap the point).
    lines.push('OCR (no refs):');
    for (const t of d.ocrText) lines.push(`${quote(t.text)} @${Math.round(t.center.x)},${Math.round(t.center.y)}`);
  }
  return lines.join('\n');
}

function renderElement(e: RenderableDescription['elements'][number]): string {
  let line = `${e.ref} ${e.role}`;
  if (e.label) line += ` ${quote(e.label)}`;
  else if (e.icon) line += ` (icon: ${e.icon})`;
  if (e.value !== undefined) line += ` = ${e.role === 'switch' ? switchState(e.value) : quote(e.value)}`;
  const flags = [e.disabled && 'disabled', e.selected && 'selected', e.focused && 'focused'].filter(Boolean);
  if (flags.length > 0) line += ` [${flags.join(',')}]`;
  return `${line} @${Math.round(e.center.x)},${Math.round(e.center.y)}`;
}

function switchState(value: string): string {
  if (value === '1' || value.toLowerCase() === 'on' || value.toLowerCase() === 'true') return 'on';
  if (value === '0' || value.toLowerCase() === 'off' || value.toLowerCase() === 'false') return 'off';
  return quote(value);
}

function quote(text: string, max = MAX_LABEL_CHARS): string {
  const clipped = text.length > max ? `${text.slice(0, max - 1)}…` : text;
  return JSON.stringify(clipped);
}
