import { centerOf } from '../attributes';
import type { Route, RouteContext } from '../router';
import type { TreeNode } from '../tree';
import { planActions } from '../w3c-actions';
import { WdaError, invalidArgument } from '../wda-error';
import { onPhone, optionalNumber, requireNumber, textOf } from './helpers';
import { dragWithin, firstScroller, SCROLLERS, scrollIntoView, tapElement } from './element-routes';
import { findNodes } from '../locators/find';

/** Coordinate and element gestures, W3C actions and typing (FBElementCommands.m, FBCustomCommands.m). */

function elementOf(context: RouteContext): TreeNode {
  return context.face.resolveElement(context.params['uuid'] ?? '');
}

/** `x`/`y` from the body: both or neither (only one → 400). */
function optionalPoint(context: RouteContext): { x: number; y: number } | undefined {
  const x = optionalNumber(context, 'x');
  const y = optionalNumber(context, 'y');
  if ((x === undefined) !== (y === undefined)) throw invalidArgument("Both 'x' and 'y' must be provided, or neither");
  return x === undefined || y === undefined ? undefined : { x, y };
}

function screenCenter(context: RouteContext) {
  const { width, height } = context.phone.screenSize();
  return { x: width / 2, y: height / 2 };
}

/** A point given relative to an element's top-left corner, or its centre. */
function pointOnElement(context: RouteContext, node: TreeNode) {
  const offset = optionalPoint(context);
  const rect = node.element.rect;
  return offset ? { x: rect.x + offset.x, y: rect.y + offset.y } : centerOf(rect);
}

function tap(context: RouteContext) {
  const point = optionalPoint(context) ?? screenCenter(context);
  onPhone(() => context.phone.tap(point.x, point.y));
  return null;
}

function tapOnElement(context: RouteContext) {
  const node = elementOf(context);
  if (optionalPoint(context) === undefined) {
    tapElement(context, node);
    return null;
  }
  const point = pointOnElement(context, node);
  onPhone(() => context.phone.tap(point.x, point.y));
  return null;
}

function drag(context: RouteContext, node?: TreeNode) {
  const origin = node ? { x: node.element.rect.x, y: node.element.rect.y } : { x: 0, y: 0 };
  const fromX = origin.x + requireNumber(context, 'fromX');
  const fromY = origin.y + requireNumber(context, 'fromY');
  const toX = origin.x + requireNumber(context, 'toX');
  const toY = origin.y + requireNumber(context, 'toY');
  // `duration` is the press before the drag starts (FBElementCommands.m pressForDuration:thenDragTo:).
  const duration = requireNumber(context, 'duration');
  if (duration < 0) throw invalidArgument("'duration' must not be negative");
  onPhone(() => context.phone.drag(fromX, fromY, toX, toY, duration));
  return null;
}

const DIRECTIONS = ['up', 'down', 'left', 'right'] as const;

/** XCUIElement.swipeUp() & co: a quick stroke across the middle of the element (or of the screen). */
function swipe(context: RouteContext, node?: TreeNode) {
  const direction = context.body['direction'];
  if (typeof direction !== 'string' || !(DIRECTIONS as readonly string[]).includes(direction.toLowerCase())) {
    throw invalidArgument(`Unsupported swipe direction '${String(direction)}'. Only the following directions are supported: ${DIRECTIONS.join(', ')}`);
  }
  const { width, height } = context.phone.screenSize();
  const rect = node?.element.rect ?? { x: 0, y: 0, width, height };
  const c = centerOf(rect);
  const dx = rect.width * 0.3;
  const dy = rect.height * 0.25;
  const vector = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] }[direction.toLowerCase() as (typeof DIRECTIONS)[number]];
  const [vx, vy] = vector as [number, number];
  const velocity = optionalNumber(context, 'velocity');
  if (velocity !== undefined && velocity <= 0) throw invalidArgument("'velocity' must be positive");
  // A swipe starts moving at once: no hold.
  onPhone(() => context.phone.drag(c.x - dx * vx, c.y - dy * vy, c.x + dx * vx, c.y + dy * vy, 0));
  return null;
}

function doubleTap(context: RouteContext, node?: TreeNode) {
  const point = node ? pointOnElement(context, node) : (optionalPoint(context) ?? screenCenter(context));
  onPhone(() => context.phone.doubleTap(point.x, point.y));
  return null;
}

/** A press held in place for `duration` seconds (default 1 s). */
function touchAndHold(context: RouteContext, node?: TreeNode) {
  const point = node ? pointOnElement(context, node) : (optionalPoint(context) ?? screenCenter(context));
  const duration = optionalNumber(context, 'duration') ?? 1;
  if (duration < 0) throw invalidArgument("'duration' must not be negative");
  onPhone(() => context.phone.longPress(point.x, point.y, duration));
  return null;
}

/**
 * XCUIElement pinchWithScale:velocity: around the centre of the app (or of the element). XCTest raises for a
 * non-positive scale or a velocity that is zero or points the other way; WDA answers that as unknown error.
 */
function pinch(context: RouteContext, node?: TreeNode) {
  const scale = requireNumber(context, 'scale');
  const velocity = requireNumber(context, 'velocity');
  const wrongWay = velocity === 0 || (scale < 1 && velocity > 0) || (scale > 1 && velocity < 0);
  if (scale <= 0 || wrongWay) {
    throw new WdaError('unknown error', `Invalid pinch: scale ${scale} with velocity ${velocity}. The scale must be positive and the velocity non-zero, negative when the scale is below 1`);
  }
  const { width, height } = context.phone.screenSize();
  const c = centerOf(node?.element.rect ?? { x: 0, y: 0, width, height });
  onPhone(() => context.phone.pinch(c.x, c.y, scale));
  return null;
}

/**
 * `mobile: scroll`: `direction` moves the viewport about a page (times `distance`) so that the content on that
 * side comes into view; `toVisible` (element route), `name` or `predicateString` scroll until that element is
 * on screen.
 */
function scroll(context: RouteContext, node?: TreeNode) {
  const { body } = context;
  const direction = body['direction'];
  if (typeof direction === 'string') {
    // finger direction: scrolling down brings the content below into view, so the finger moves up
    const vector = ({ up: [0, 1], down: [0, -1], left: [1, 0], right: [-1, 0] } as Record<string, [number, number]>)[direction.toLowerCase()];
    if (!vector) throw invalidArgument(`Unsupported scroll direction '${direction}'. Only the following directions are supported: ${DIRECTIONS.join(', ')}`);
    const distance = Math.min(1, Math.max(0, optionalNumber(context, 'distance') ?? 1));
    const scroller = node && SCROLLERS.has(node.element.type) ? node : firstScroller(context, node);
    const { width, height } = context.phone.screenSize();
    dragWithin(context, scroller?.element.rect ?? node?.element.rect ?? { x: 0, y: 0, width, height }, vector, 0.8 * distance);
    return null;
  }
  let target: TreeNode | undefined;
  if (body['toVisible'] && node) target = node;
  else if (typeof body['name'] === 'string') target = findNodes(context.face.tree(), node ?? context.face.tree().root, 'accessibility id', body['name'])[0];
  else if (typeof body['predicateString'] === 'string') target = findNodes(context.face.tree(), node ?? context.face.tree().root, 'predicate string', body['predicateString'])[0];
  else throw invalidArgument("Unsupported scroll type: give 'direction', 'name', 'predicateString' or 'toVisible'");
  if (!target) throw new WdaError('no such element', 'Failed to find the element to scroll to');
  scrollIntoView(context, target);
  return null;
}

function actions(context: RouteContext) {
  const gestures = planActions(context.body, (id) => context.face.resolveElement(id));
  for (const gesture of gestures) {
    if (gesture.kind === 'tap') context.phone.tap(gesture.x, gesture.y);
    else if (gesture.kind === 'hold') context.phone.longPress(gesture.x, gesture.y, gesture.durationSec);
    else if (gesture.kind === 'pinch') context.phone.pinch(gesture.x, gesture.y, gesture.scale);
    else if (gesture.kind === 'drag') context.phone.drag(gesture.fromX, gesture.fromY, gesture.toX, gesture.toY, gesture.holdSec);
    else onPhone(() => context.phone.typeText(gesture.text), { no_focused_element: (m) => new WdaError('unknown error', m) });
  }
  return null;
}

function keys(context: RouteContext) {
  const text = textOf(context.body['value']);
  if (text === undefined) throw invalidArgument("'value' must be an array of strings");
  onPhone(() => context.phone.typeText(text), { invalid_argument: (m) => new WdaError('invalid element state', m) });
  return null;
}

export const gestureRoutes: Route[] = [
  { method: 'POST', pattern: '/wda/tap', mode: 'S', handler: tap },
  { method: 'POST', pattern: '/wda/element/:uuid/tap', mode: 'S', handler: tapOnElement },
  { method: 'POST', pattern: '/wda/dragfromtoforduration', mode: 'S', handler: (c) => drag(c) },
  { method: 'POST', pattern: '/wda/element/:uuid/dragfromtoforduration', mode: 'S', handler: (c) => drag(c, elementOf(c)) },
  { method: 'POST', pattern: '/wda/swipe', mode: 'S', handler: (c) => swipe(c) },
  { method: 'POST', pattern: '/wda/element/:uuid/swipe', mode: 'S', handler: (c) => swipe(c, elementOf(c)) },
  { method: 'POST', pattern: '/wda/doubleTap', mode: 'S', handler: (c) => doubleTap(c) },
  { method: 'POST', pattern: '/wda/element/:uuid/doubleTap', mode: 'S', handler: (c) => doubleTap(c, elementOf(c)) },
  { method: 'POST', pattern: '/wda/touchAndHold', mode: 'S', handler: (c) => touchAndHold(c) },
  { method: 'POST', pattern: '/wda/element/:uuid/touchAndHold', mode: 'S', handler: (c) => touchAndHold(c, elementOf(c)) },
  { method: 'POST', pattern: '/wda/pinch', mode: 'S', handler: (c) => pinch(c) },
  { method: 'POST', pattern: '/wda/element/:uuid/pinch', mode: 'S', handler: (c) => pinch(c, elementOf(c)) },
  { method: 'POST', pattern: '/wda/scroll', mode: 'S', handler: (c) => scroll(c) },
  { method: 'POST', pattern: '/wda/element/:uuid/scroll', mode: 'S', handler: (c) => scroll(c, elementOf(c)) },
  { method: 'POST', pattern: '/actions', mode: 'S', handler: actions },
  { method: 'POST', pattern: '/wda/keys', mode: 'S', handler: keys },
];
