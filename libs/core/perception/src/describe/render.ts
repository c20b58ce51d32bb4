import type { DescribedElement, ScreenDescription } from '../types';

/** What the text is rendered from: a description as perception builds it, or as an operation slimmed it. */
export type RenderableDescription = Pick<ScreenDescription, 'app' | 'screen' | 'orientation' | 'alert' | 'keyboardVisible' | 'omittedElements'> & {
  elements: Omit<DescribedElement, 'nodeId' | 'bounds'>[];
  staticText?: ScreenDescription['staticText'];
  ocrText: { text: string; center: { x: number; y: number } }[];
};

const MAX_LABEL_CHARS = 60;
/** An alert's words are what the user must answer: keep more of them. */
const MAX_ALERT_CHARS = 200;

/**
 * The compact text a model reads, one element per line:
 *   Settings (com.apple.Preferences) · 393×852 pt · portrait
 *   e3 switch "Airplane Mode" = off @196,240
 * Points are rounded to whole numbers: enough to tap.
 */
export function renderDescription(d: RenderableDescription): string {
  const lines: string[] = [];
  const app = d.app ? `${d.app.name ?? d.app.appId}${d.app.name ? ` (${d.app.appId})` : ''}` : 'Unknown app';
  lines.push(`${app} · ${d.screen.width}×${d.screen.height} pt · ${d.orientation}${d.keyboardVisible ? ' · keyboard up' : ''}`);
  if (d.alert) {
    const parts = [d.alert.title, d.alert.message].filter(Boolean).map((t) => quote(t as string, MAX_ALERT_CHARS));
    lines.push(`ALERT ${parts.join(' — ')} buttons: ${d.alert.buttons.map((b) => quote(b)).join(', ') || 'none'}`);
  }
  lines.push('Elements (ref role "label" = value @x,y):');
  for (const element of d.elements) lines.push(renderElement(element));
  if (d.omittedElements > 0) lines.push(`(+${d.omittedElements} more elements not listed; raise maxElements)`);
  if (d.elements.length === 0) lines.push('(none)');
  if (d.staticText && d.staticText.length > 0) {
    lines.push('Text:');
    for (const t of d.staticText) lines.push(`${quote(t.text)} @${Math.round(t.center.x)},${Math.round(t.center.y)}`);
  }
  if (d.ocrText.length > 0) {
    lines.push('Text on screen not in the tree (OCR):');
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
