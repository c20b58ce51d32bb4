import { compactText, isInteractive, type Rect, type Role, type ScreenGeometry, type UiNode } from '@apex/port';
import { intersectionArea, overlapOfSmaller, roundedCenter, roundRect } from '../geometry';
import type { OcrPage } from '../ocr/ocr-types';
import { textMatchScore } from '../text/similarity';
import { nodeTexts } from '../text/text-finders';
import { descendantText } from '../tree/prune';
import { visibleNodes, type VisibleNode } from '../tree/visible';
import type { DescribedElement, DescribedText, ScreenDescription, ScreenDescriptionResult } from '../types';
import { renderDescription } from './render';

const DEFAULT_MAX_ELEMENTS = 60;
/** OCR lines less sure than this are left out of a description (glyphs read as letters, cut-off lines). */
const MIN_DESCRIBED_OCR_CONFIDENCE = 0.7;
/** Words of up to three characters are mostly glyphs read as text (signal bars as "all"): keep them only when
 *  OCR is very sure. */
const MIN_SHORT_OCR_CONFIDENCE = 0.9;
const MAX_OCR_LINES = 40;
const MAX_STATIC_TEXTS = 30;
const BAR_ROLES: ReadonlySet<Role> = new Set<Role>(['navigationBar', 'toolbar', 'tabBar', 'keyboard']);
/** Roles listed as elements besides the interactive ones: labeled images are usually tappable (thumbnails). */
const LISTED_EXTRA_ROLES = new Set(['image']);

export interface DescribeInput {
  tree: UiNode;
  screen: ScreenGeometry;
  orientation?: 'portrait' | 'landscape';
  app?: { appId: string; name?: string };
  ocr?: OcrPage;
  /** Node id → built-in glyph recognized in an unlabeled icon button's pixels. */
  iconNames?: Map<string, string>;
  maxElements?: number;
  /** Names each listed element with its element ref (default: e1, e2… in reading order). */
  refOf?: (node: UiNode) => string | undefined;
}

/** Builds the structured description and its compact text rendering. */
export function describeScreen(input: DescribeInput): ScreenDescriptionResult {
  const screenRect: Rect = { x: 0, y: 0, width: input.screen.width, height: input.screen.height };
  const visible = visibleNodes(input.tree, screenRect);
  const keyboard = visible.find((v) => v.node.role === 'keyboard');
  const alert = visible.find((v) => v.node.role === 'alert');

  const candidates = listedElements(visible, keyboard?.bounds);
  const interactive = candidates.filter((v) => !isSwitchRow(v, visible)).sort(readingOrder);
  // With an alert up only the alert can be used: list its buttons first.
  const ordered = alert
    ? [...interactive.filter((v) => isInside(v.bounds, alert.bounds)), ...interactive.filter((v) => !isInside(v.bounds, alert.bounds))]
    : interactive;
  const maxElements = input.maxElements ?? DEFAULT_MAX_ELEMENTS;
  const listed = ordered.slice(0, maxElements);
  const elements = listed.map((v, i) => describeElement(v, input.refOf?.(v.node) ?? `e${i + 1}`, input.iconNames?.get(v.node.id)));

  const description: ScreenDescription = {
    screen: { width: input.screen.width, height: input.screen.height, scale: input.screen.scale },
    orientation: input.orientation ?? (input.screen.width > input.screen.height ? 'landscape' : 'portrait'),
    keyboardVisible: keyboard !== undefined,
    elements,
    omittedElements: ordered.length - listed.length,
    refs: Object.fromEntries(elements.map((e) => [e.ref, { nodeId: e.nodeId, center: e.center }])),
    staticText: staticTexts(visible, candidates, alert?.bounds),
    ocrText: input.ocr ? textTheTreeLacks(input.ocr, visible, keyboard?.bounds) : [],
  };
  if (input.app) description.app = input.app;
  if (alert) description.alert = describeAlert(alert.node);
  return { ...description, text: renderDescription(description) };
}

/** Interactive nodes (keyboard keys aside: the keyboard is summarized) and labeled images not inside them. */
function listedElements(visible: VisibleNode[], keyboard?: Rect): VisibleNode[] {
  const interactive = visible.filter(
    (v) => isInteractive(v.node.role) && !(keyboard && v.node.role === 'key' && isInside(v.bounds, keyboard)),
  );
  return visible.filter(
    (v) =>
      interactive.includes(v) ||
      (LISTED_EXTRA_ROLES.has(v.node.role) && Boolean(v.node.label) && !interactive.some((i) => isInside(v.bounds, i.bounds))),
  );
}

/**
 * A row whose label is the label of a switch in it is that switch (Settings' "Airplane Mode" row): only the
 * switch is listed, with the label and the state; the row's text is not listed apart either.
 */
function isSwitchRow(row: VisibleNode, visible: VisibleNode[]): boolean {
  if (row.node.role !== 'cell') return false;
  const label = labelOf(row.node);
  return (
    label !== undefined &&
    visible.some((v) => v.node.role === 'switch' && v !== row && isInside(v.bounds, row.bounds) && labelOf(v.node) === label)
  );
}

/** Tree text outside every listed element (and the alert, described apart): titles, headers, captions. */
function staticTexts(visible: VisibleNode[], listed: VisibleNode[], alert?: Rect): ScreenDescription['staticText'] {
  const out: ScreenDescription['staticText'] = [];
  const seen = new Set<string>();
  for (const v of visible) {
    if (v.node.role !== 'text' || !v.node.label) continue;
    if (listed.some((l) => isInside(v.bounds, l.bounds))) continue;
    if (alert && isInside(v.bounds, alert)) continue;
    const key = `${v.node.label}@${Math.round(v.bounds.y)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ text: v.node.label, center: roundedCenter(v.bounds) });
    if (out.length >= MAX_STATIC_TEXTS) break;
  }
  return out.sort((a, b) => a.center.y - b.center.y || a.center.x - b.center.x);
}

function describeElement(v: VisibleNode, ref: string, icon?: string): DescribedElement {
  const { node, bounds } = v;
  const element: DescribedElement = { ref, nodeId: node.id, role: node.role, center: roundedCenter(bounds), bounds: roundRect(bounds) };
  const label = labelOf(node);
  if (label) element.label = label;
  else if (icon) element.icon = icon;
  if (node.value && node.value !== label && node.role !== 'secureTextField') element.value = node.value;
  if (!node.enabled) element.disabled = true;
  if (node.selected) element.selected = true;
  if (node.focused) element.focused = true;
  return element;
}

/** The label an element is listed with: its own, else the text inside it, else its placeholder. */
function labelOf(node: UiNode): string | undefined {
  return node.label || descendantText(node) || node.placeholder || undefined;
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

/**
 * Leaves whose text is what they show: a map, an image or an `other` view says what it is, not what is written
 * on it.
 */
const ROLES_SHOWING_THEIR_TEXT: ReadonlySet<Role> = new Set<Role>([
  'text',
  'button',
  'link',
  'cell',
  'key',
  'icon',
  'switch',
  'slider',
  'textField',
  'secureTextField',
  'searchField',
]);

/**
 * Where the tree already says what the pixels show, so OCR need not read there: leaves showing their own text,
 * unlabeled controls (what OCR reads on them is a glyph, never kept) and the keyboard — the lines
 * `textTheTreeLacks` would drop. In points.
 */
export function regionsTheTreeTells(tree: UiNode, screen: Rect): Rect[] {
  return visibleNodes(tree, screen)
    .filter(({ node }) => {
      const texts = nodeTexts(node).length;
      if (node.role === 'keyboard') return true;
      if (texts === 0) return isInteractive(node.role);
      return node.children.length === 0 && ROLES_SHOWING_THEIR_TEXT.has(node.role);
    })
    .map((v) => v.bounds);
}

/** OCR lines no visible tree text already covers, top to bottom (keyboard keys excluded). */
function textTheTreeLacks(page: OcrPage, visible: VisibleNode[], keyboard?: Rect): DescribedText[] {
  const treeTexts = visible.flatMap((v) => nodeTexts(v.node).map((text) => ({ text, bounds: v.bounds })));
  const out: DescribedText[] = [];
  const unlabeledControls = visible.filter((v) => isInteractive(v.node.role) && nodeTexts(v.node).length === 0);
  const bars = visible.filter((v) => BAR_ROLES.has(v.node.role)).map((v) => v.bounds);
  for (const line of page.lines) {
    const letters = compactText(line.text).length;
    if (line.confidence < MIN_DESCRIBED_OCR_CONFIDENCE || letters < 2) continue;
    if (letters <= 3 && line.confidence < MIN_SHORT_OCR_CONFIDENCE) continue;
    if (keyboard && isInside(line.bounds, keyboard)) continue;
    // Text cut off by a bar's edge (scrolled under a toolbar) reads as garbage.
    if (bars.some((bar) => intersectionArea(bar, line.bounds) > 0 && !containsRect(bar, line.bounds))) continue;
    // A glyph on an unlabeled button read as letters ("th" for a share icon) is not text.
    if (unlabeledControls.some((c) => isInside(line.bounds, c.bounds))) continue;
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

/** Top to bottom, then left to right; centres less than 8 pt apart vertically count as one row. */
function readingOrder(a: VisibleNode, b: VisibleNode): number {
  const ay = a.bounds.y + a.bounds.height / 2;
  const by = b.bounds.y + b.bounds.height / 2;
  if (Math.abs(ay - by) >= 8) return ay - by;
  return a.bounds.x + a.bounds.width / 2 - (b.bounds.x + b.bounds.width / 2);
}

function isInside(inner: Rect, outer: Rect): boolean {
  const cx = inner.x + inner.width / 2;
  const cy = inner.y + inner.height / 2;
  return cx >= outer.x && cy >= outer.y && cx <= outer.x + outer.width && cy <= outer.y + outer.height;
}

function containsRect(outer: Rect, inner: Rect): boolean {
  return (
    inner.x >= outer.x - 1 &&
    inner.y >= outer.y - 1 &&
    inner.x + inner.width <= outer.x + outer.width + 1 &&
    inner.y + inner.height <= outer.y + outer.height + 1
  );
}
