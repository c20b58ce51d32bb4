import { canvasApi } from '../../../engine/render/canvas';
import type { PhoneElement, Rect } from '../../model';
import { centerOf, integralRect, wdLabel, wdName, wdPlaceholder, wdText, wdTraits, wdType, wdValue, frameString } from '../attributes';
import { findNodes } from '../locators/find';
import type { Route, RouteContext } from '../router';
import type { TreeNode } from '../tree';
import { WdaError, invalidArgument, unknownError } from '../wda-error';
import { onPhone, textOf } from './helpers';

/** Finding elements and commanding them (FBFindElementCommands.m, FBElementCommands.m). */

function locator(context: RouteContext): { using: string; value: string } {
  const { using, value } = context.body;
  if (typeof using !== 'string' || typeof value !== 'string') throw invalidArgument("Both 'using' and 'value' must be strings");
  return { using, value };
}

function find(context: RouteContext, scope: TreeNode | undefined, single: boolean) {
  const { using, value } = locator(context);
  const tree = context.face.tree();
  const nodes = findNodes(tree, scope ?? tree.root, using, value);
  if (single) {
    const first = nodes[0];
    if (!first) throw new WdaError('no such element', `unable to find an element using '${using}', value '${value}'`);
    return context.face.elementReference(first);
  }
  return nodes.map((node) => context.face.elementReference(node));
}

function element(context: RouteContext): TreeNode {
  return context.face.resolveElement(context.params['uuid'] ?? '');
}

/** Element types that scroll their content. */
export const SCROLLERS: ReadonlySet<string> = new Set(['ScrollView', 'Table', 'CollectionView', 'WebView']);

function onScreen(context: RouteContext, e: PhoneElement): boolean {
  const { width, height } = context.phone.screenSize();
  const c = centerOf(e.rect);
  return c.x >= 0 && c.y >= 0 && c.x < width && c.y < height;
}

/**
 * Like XCUIElement's automatic scrolling: an element inside a scrolling container whose centre is off screen
 * is brought on screen with a few drags. Returns the node as it is on screen now; `element not visible` if
 * it cannot be reached.
 */
export function scrollIntoView(context: RouteContext, node: TreeNode): TreeNode {
  const { face } = context;
  let current = node;
  if (onScreen(context, current.element)) return current;
  let scroller: TreeNode | null = current.parent;
  while (scroller && !SCROLLERS.has(scroller.element.type)) scroller = scroller.parent;
  const uid = current.element.uid;
  for (let attempt = 0; scroller && attempt < 12 && !onScreen(context, current.element); attempt++) {
    const below = centerOf(current.element.rect).y >= context.phone.screenSize().height;
    dragWithin(context, scroller.element.rect, [0, below ? -1 : 1], 0.5);
    const next = face.tree().byUid.get(uid);
    if (!next) break;
    current = next;
    scroller = face.tree().byUid.get(scroller.element.uid) ?? null;
  }
  if (!onScreen(context, current.element)) {
    throw new WdaError('element not visible', `The element '${wdType(current.element)}' is not visible on the screen and cannot be scrolled to`);
  }
  return current;
}

/**
 * A drag across the on-screen part of `area`, centred, along `vector` (finger direction), covering `fraction`
 * of the area in that direction.
 */
export function dragWithin(context: RouteContext, area: Rect, vector: readonly [number, number], fraction: number): void {
  const { width, height } = context.phone.screenSize();
  const x0 = Math.max(0, area.x);
  const y0 = Math.max(0, area.y);
  const x1 = Math.min(width, area.x + area.width);
  const y1 = Math.min(height, area.y + area.height);
  const c = { x: (x0 + x1) / 2, y: (y0 + y1) / 2 };
  const dx = ((x1 - x0) * fraction * vector[0]) / 2;
  const dy = ((y1 - y0) * fraction * vector[1]) / 2;
  // A scroll moves at once: no hold before the drag.
  onPhone(() => context.phone.drag(c.x - dx, c.y - dy, c.x + dx, c.y + dy, 0));
}

/** The first scrolling container on screen, if any. */
export function firstScroller(context: RouteContext, within?: TreeNode): TreeNode | undefined {
  const root = within ?? context.face.tree().root;
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.shift() as TreeNode;
    if (SCROLLERS.has(node.element.type) && node.element.visible) return node;
    stack.push(...node.children);
  }
  return undefined;
}

/** Like XCUIElement.tap(): scrolls the element into view if needed, then taps its centre. */
export function tapElement(context: RouteContext, node: TreeNode): void {
  const c = centerOf(scrollIntoView(context, node).element.rect);
  onPhone(() => context.phone.tap(c.x, c.y));
}

const ATTRIBUTE_NAMES = [
  'name', 'label', 'value', 'type', 'rect', 'frame', 'visible', 'displayed', 'enabled', 'accessible', 'selected',
  'index', 'hittable', 'UID', 'placeholderValue', 'traits', 'focused', 'identifier',
];

function attribute(context: RouteContext, node: TreeNode, rawName: string): unknown {
  const e = node.element;
  const name = rawName.replace(/^wd(?=[A-Z])/, '').replace(/^is(?=[A-Z])/, '');
  switch (name.toLowerCase()) {
    case 'name':
      return wdName(e);
    case 'label':
      return wdLabel(e);
    case 'value':
      return wdValue(e);
    case 'type':
      return wdType(e);
    case 'rect':
      return integralRect(e.rect);
    case 'frame':
      return frameString(integralRect(e.rect));
    case 'visible':
    case 'displayed':
      return e.visible;
    case 'enabled':
      return e.enabled;
    case 'accessible':
      return e.accessible;
    case 'selected':
      return e.selected;
    case 'index':
      return node.index;
    case 'hittable':
      return e.visible && e.enabled && onScreen(context, e);
    case 'uid':
      return context.face.elementReference(node)['ELEMENT'];
    case 'placeholdervalue':
      return wdPlaceholder(e);
    case 'traits':
      return wdTraits(e);
    case 'focused':
      return e.focused;
    case 'identifier':
      return e.identifier ?? '';
    default:
      throw unknownError(`The attribute '${rawName}' is unknown. Valid attribute names are: (${ATTRIBUTE_NAMES.join(', ')})`);
  }
}

function setValue(context: RouteContext) {
  const node = element(context);
  const text = textOf(context.body['value']) ?? textOf(context.body['text']);
  if (text === undefined) throw invalidArgument("Neither 'value' nor 'text' parameter is provided");
  const e = node.element;
  if (e.type === 'Slider') {
    const fraction = Number(text);
    if (!Number.isFinite(fraction) || fraction < 0 || fraction > 1) {
      throw invalidArgument(`'${text}' is not a valid slider value. It must be a number in range 0..1`);
    }
    const y = e.rect.y + e.rect.height / 2;
    onPhone(() => context.phone.tap(e.rect.x + fraction * e.rect.width, y));
    return null;
  }
  onPhone(
    () => {
      if (!e.focused) context.phone.focusElement(e.uid);
      context.phone.typeText(text);
    },
    { no_focused_element: (message) => new WdaError('invalid element state', message), invalid_argument: (message) => new WdaError('invalid element state', message) },
  );
  return null;
}

function elementScreenshot(context: RouteContext) {
  const node = element(context);
  const scale = context.phone.profile.scale;
  const { width, height } = context.phone.screenSize();
  const r = integralRect(node.element.rect);
  const x0 = Math.max(0, r.x);
  const y0 = Math.max(0, r.y);
  const x1 = Math.min(width, r.x + r.width);
  const y1 = Math.min(height, r.y + r.height);
  if (x1 <= x0 || y1 <= y0) throw new WdaError('unable to capture screen', 'The element is not on the screen');
  const { createCanvas, Image } = canvasApi();
  const image = new Image();
  image.src = context.phone.renderPng();
  const canvas = createCanvas(Math.round((x1 - x0) * scale), Math.round((y1 - y0) * scale));
  canvas.getContext('2d').drawImage(image, x0 * scale, y0 * scale, canvas.width, canvas.height, 0, 0, canvas.width, canvas.height);
  return canvas.toBuffer('image/png').toString('base64');
}

export const elementRoutes: Route[] = [
  { method: 'POST', pattern: '/element', mode: 'S', handler: (context) => find(context, undefined, true) },
  { method: 'POST', pattern: '/elements', mode: 'S', handler: (context) => find(context, undefined, false) },
  { method: 'GET', pattern: '/element/active', mode: 'S', handler: activeElement },
  { method: 'POST', pattern: '/element/:uuid/element', mode: 'S', handler: (context) => find(context, element(context), true) },
  { method: 'POST', pattern: '/element/:uuid/elements', mode: 'S', handler: (context) => find(context, element(context), false) },
  { method: 'GET', pattern: '/element/:uuid/rect', mode: 'S', handler: (context) => integralRect(element(context).element.rect) },
  { method: 'GET', pattern: '/element/:uuid/attribute/:name', mode: 'S', handler: (context) => attribute(context, element(context), context.params['name'] ?? '') },
  { method: 'GET', pattern: '/element/:uuid/text', mode: 'S', handler: (context) => wdText(element(context).element) },
  { method: 'GET', pattern: '/element/:uuid/displayed', mode: 'S', handler: (context) => element(context).element.visible },
  { method: 'GET', pattern: '/element/:uuid/enabled', mode: 'S', handler: (context) => element(context).element.enabled },
  { method: 'GET', pattern: '/element/:uuid/selected', mode: 'S', handler: (context) => element(context).element.selected },
  { method: 'GET', pattern: '/element/:uuid/name', mode: 'S', handler: (context) => wdType(element(context).element) },
  { method: 'GET', pattern: '/element/:uuid/screenshot', mode: 'S', handler: elementScreenshot },
  {
    method: 'POST',
    pattern: '/element/:uuid/click',
    mode: 'S',
    handler: (context) => {
      tapElement(context, element(context));
      return null;
    },
  },
  {
    method: 'POST',
    pattern: '/element/:uuid/clear',
    mode: 'S',
    handler: (context) => {
      const node = element(context);
      onPhone(() => context.phone.clearElement(node.element.uid), { invalid_argument: (m) => new WdaError('invalid element state', m) });
      return null;
    },
  },
  { method: 'POST', pattern: '/element/:uuid/value', mode: 'S', handler: setValue },
];

function activeElement(context: RouteContext) {
  const tree = context.face.tree();
  for (const node of tree.byUid.values()) if (node.element.focused) return context.face.elementReference(node);
  throw new WdaError('no such element', 'No element is currently focused');
}
