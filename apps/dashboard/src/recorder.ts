import { nodeAt } from './geometry';
import type { Point, Rect, UiNode } from './types';

/**
 * What a person does on the page's screen and buttons, as the steps of a flow (the flow format of
 * libs/core/tasks: `tap: General`, `swipe: up`, `press: home`…). Elements are named as a flow exported from a
 * task names them: by the text a person reads first, label + role next, role + index next, the point last.
 */

export type Selector = { text: string } | { label: string; role: string } | { role: string; index: number } | { point: Point };
export type FlowStep = Record<string, unknown>;

/** Containers a person does not mean when pointing: a point names them better than "the 3rd window". */
const NAMELESS_ROLES = new Set(['application', 'window', 'other', 'group', 'scrollView', 'table', 'collectionView']);

function flatten(node: UiNode): UiNode[] {
  return [node, ...(node.children ?? []).flatMap(flatten)];
}

const holds = (outer: Rect, inner: Rect) =>
  inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;

/** Another node than `element` with this name, not nested in it or around it (a cell and its own label are one thing). */
function othersNamed(nodes: UiNode[], element: UiNode, named: (n: UiNode) => boolean): number {
  return nodes.filter((n) => n !== element && named(n) && !holds(n.bounds, element.bounds) && !holds(element.bounds, n.bounds)).length;
}

const round = (v: number) => Math.round(v * 10) / 10;

/** How a flow names the element under `point` on the screen whose tree is `root`. */
export function selectorAt(root: UiNode | undefined, point: Point): Selector {
  const at = { point: { x: round(point.x), y: round(point.y) } };
  const element = nodeAt(root, point);
  if (!root || !element || element === root) return at;
  const nodes = flatten(root);
  const text = element.label ?? element.value;
  if (text && othersNamed(nodes, element, (n) => n.label === text || n.value === text) === 0) return { text };
  if (element.label && othersNamed(nodes, element, (n) => n.label === element.label && n.role === element.role) === 0) {
    return { label: element.label, role: element.role };
  }
  if (!text && NAMELESS_ROLES.has(element.role)) return at;
  const ofRole = nodes.filter((n) => n.role === element.role).sort((a, b) => a.bounds.y - b.bounds.y || a.bounds.x - b.bounds.x);
  const index = ofRole.indexOf(element);
  return index >= 0 && index < 100 ? { role: element.role, index } : at;
}

/** `{text: General}` reads best as `General`. */
const compact = (selector: Selector) => ('text' in selector ? selector.text : selector);

function direction(from: Point, to: Point): 'up' | 'down' | 'left' | 'right' {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  return Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 'right' : 'left') : dy > 0 ? 'down' : 'up';
}

/**
 * The flow step for one REST operation the page sends (`POST /devices/{d}<path>` with `body`), the element
 * named on the screen as it was when the person acted; undefined for what flows have no step for (lock,
 * appearance).
 */
export function stepOf(path: string, body: Record<string, unknown>, root: UiNode | undefined): FlowStep | undefined {
  const point = () => ({ x: Number(body['x']), y: Number(body['y']) });
  switch (path) {
    case '/tap':
      return { tap: compact(selectorAt(root, point())) };
    case '/long-press':
      return { long_press: { selector: compact(selectorAt(root, point())), ...(typeof body['durationMs'] === 'number' ? { durationMs: body['durationMs'] } : {}) } };
    case '/swipe':
      return { swipe: direction(body['from'] as Point, body['to'] as Point) };
    case '/input':
      return { type: body['submit'] ? { text: String(body['text']), submit: true } : String(body['text']) };
    case '/press-button':
      return { press: body['button'] };
    case '/launch':
      return { launch: String(body['appId'] ?? body['name']) };
    case '/open-url':
      return { open_url: body['url'] };
    case '/alert':
      return { handle_alert: body['action'] };
    case '/orientation':
      return { set_orientation: body['orientation'] };
    case '/hide-keyboard':
      return { hide_keyboard: true };
    default:
      return undefined;
  }
}

/** A plain YAML scalar where it reads as the same string, else a JSON string (JSON is YAML's flow style). */
function scalar(value: unknown): string {
  if (typeof value !== 'string') return JSON.stringify(value);
  const plain = /^[A-Za-z][\w .,'()/-]*$/.test(value) && !/[ .]$/.test(value) && !/^(true|false|null|yes|no|on|off|y|n|~)$/i.test(value) && !value.includes(': ') && !value.includes(' #');
  return plain ? value : JSON.stringify(value);
}

function flowValue(value: unknown): string {
  if (value === null || typeof value !== 'object') return scalar(value);
  return `{ ${Object.entries(value)
    .map(([k, v]) => `${k}: ${flowValue(v)}`)
    .join(', ')} }`;
}

/** The recorded steps as a flow file run_flow reads. */
export function flowYaml(name: string, steps: FlowStep[]): string {
  const lines = ['# Recorded in the Apex dashboard.', `name: ${scalar(name)}`, steps.length === 0 ? 'steps: []' : 'steps:'];
  for (const step of steps) {
    const [[kind, value]] = Object.entries(step);
    lines.push(`  - ${kind}: ${flowValue(value)}`);
  }
  return `${lines.join('\n')}\n`;
}
