import type { Rect, ScreenGeometry, UiNode } from '@apex/capability';
import { overlapOfSmaller, roundedCenter, roundRect } from '../geometry';
import type { OcrPage } from '../ocr/ocr-types';
import { compactText } from '../text/normalize';
import { textMatchScore } from '../text/similarity';
import { nodeTexts } from '../text/text-finders';
import { descendantText } from '../tree/prune';
import { isInteractive } from '../tree/roles';
import { visibleNodes, type VisibleNode } from '../tree/visible';
import type { DescribedElement, DescribedText, ScreenDescription, ScreenDescriptionResult } from '../types';
import { renderDescription } from './render';

export const DEFAULT_MAX_ELEMENTS = 60;
/** OCR lines less sure than this are left out of a description (glyphs read as letters, etc.). */
const MIN_DESCRIBED_OCR_CONFIDENCE = 0.6;
const MAX_OCR_LINES = 40;

export interface DescribeInput {
  tree: UiNode;
  screen: ScreenGeometry;
  orientation?: 'portrait' | 'landscape';
  app?: { appId: string; name?: string };
  ocr?: OcrPage;
  maxElements?: number;
}

/** Builds the structured description and its compact text rendering. */
export function describeScreen(input: DescribeInput): ScreenDescriptionResult {
  const screenRect: Rect = { x: 0, y: 0, width: input.screen.width, height: input.screen.height };
  const visible = visibleNodes(input.tree, screenRect);
  const keyboard = visible.find((v) => v.node.role === 'keyboard');
  const alert = visible.find((v) => v.node.role === 'alert');

  const interactive = visible.filter(
    (v) => isInteractive(v.node.role) && !(keyboard && v.node.role === 'key' && isInside(v.bounds, keyboard.bounds)),
  );
  // With an alert up only the alert can be used: list its buttons first.
  const ordered = alert
    ? [...interactive.filter((v) => isInside(v.bounds, alert.bounds)), ...interactive.filter((v) => !isInside(v.bounds, alert.bounds))]
    : interactive;
  const maxElements = input.maxElements ?? DEFAULT_MAX_ELEMENTS;
  const listed = ordered.slice(0, maxElements);
  const elements = listed.map((v, i) => describeElement(v, `e${i + 1}`));

  const description: ScreenDescription = {
    screen: { width: input.screen.width, height: input.screen.height, scale: input.screen.scale },
    orientation: input.orientation ?? (input.screen.width > input.screen.height ? 'landscape' : 'portrait'),
    keyboardVisible: keyboard !== undefined,
    elements,
    omittedElements: ordered.length - listed.length,
    refs: Object.fromEntries(elements.map((e) => [e.ref, { nodeId: e.nodeId, center: e.center }])),
    ocrText: input.ocr ? textTheTreeLacks(input.ocr, visible, keyboard?.bounds) : [],
  };
  if (input.app) description.app = input.app;
  if (alert) description.alert = describeAlert(alert.node);
  return { ...description, text: renderDescription(description) };
}

function describeElement(v: VisibleNode, ref: string): DescribedElement {
  const { node, bounds } = v;
  const element: DescribedElement = { ref, nodeId: node.id, role: node.role, center: roundedCenter(bounds) };
  const label = node.label || descendantText(node) || node.placeholder;
  if (label) element.label = label;
  if (node.value && node.value !== label && node.role !== 'secureTextField') element.value = node.value;
  if (!node.enabled) element.disabled = true;
  if (node.selected) element.selected = true;
  if (node.focused) element.focused = true;
  return element;
}

function describeAlert(alert: UiNode): NonNullable<ScreenDescription['alert']> {
  const texts: string[] = [];
  const buttons: string[] = [];
  const walk = (n: UiNode) => {
    if (n.role === 'button' && n.label) buttons.push(n.label);
    else if (n.role === 'text' && n.label) texts.push(n.label);
    n.children.forEach(walk);
  };
  alert.children.forEach(walk);
  const title = alert.label || texts.shift();
  const message = texts.filter((t) => t !== title).join(' ') || undefined;
  const out: NonNullable<ScreenDescription['alert']> = { buttons };
  if (title) out.title = title;
  if (message) out.message = message;
  return out;
}

/** OCR lines no visible tree text already covers, top to bottom (keyboard keys excluded). */
function textTheTreeLacks(page: OcrPage, visible: VisibleNode[], keyboard?: Rect): DescribedText[] {
  const treeTexts = visible.flatMap((v) => nodeTexts(v.node).map((text) => ({ text, bounds: v.bounds })));
  const out: DescribedText[] = [];
  for (const line of page.lines) {
    if (line.confidence < MIN_DESCRIBED_OCR_CONFIDENCE || compactText(line.text).length < 2) continue;
    if (keyboard && isInside(line.bounds, keyboard)) continue;
    const covered = treeTexts.some(
      (t) => overlapOfSmaller(t.bounds, line.bounds) > 0.3 && textMatchScore(line.text, t.text, { ocr: true }) >= 0.75,
    );
    if (covered) continue;
    out.push({
      text: line.text,
      bounds: roundRect(line.bounds),
      center: roundedCenter(line.bounds),
      confidence: Math.round(line.confidence * 100) / 100,
    });
    if (out.length >= MAX_OCR_LINES) break;
  }
  return out;
}

function isInside(inner: Rect, outer: Rect): boolean {
  const cx = inner.x + inner.width / 2;
  const cy = inner.y + inner.height / 2;
  return cx >= outer.x && cy >= outer.y && cx <= outer.x + outer.width && cy <= outer.y + outer.height;
}
