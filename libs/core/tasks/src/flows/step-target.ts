import type { StepAction } from '../model/task';
import type { Observation, ScreenElement } from '../agent/observation';
import type { Selector } from './flow-schema';
import { choose, treeCandidates } from './selector';

/** Operations whose `ref` or `x, y` name an element a flow can name instead (and input_text by `ref`: its `into`). */
const POINTED = new Set(['tap', 'double_tap', 'long_press']);
/** Planners touch an element at the centre its description gave, rounded: within this many points is "at". */
const AT_CENTRE_PT = 1;

/**
 * The element of `screen` an action names: the one its `ref` is (as the screen's description listed it), or the
 * one whose centre its `x, y` is; undefined for an action that names none, or a ref the screen did not list.
 */
export function elementOf(action: StepAction, screen: Observation): ScreenElement | undefined {
  const { ref, x, y } = action.arguments as { ref?: unknown; x?: unknown; y?: unknown };
  if (typeof ref === 'string') return screen.screen.elements.find((e) => e.ref === ref);
  if (typeof x !== 'number' || typeof y !== 'number') return undefined;
  return screen.screen.elements.find((e) => Math.abs(e.center.x - x) <= AT_CENTRE_PT && Math.abs(e.center.y - y) <= AT_CENTRE_PT);
}

/**
 * The most robust selector that picks out, on the screen the action was decided on, the element the action
 * touched (by ref or by its centre): its text or label first, label + role next, role + index last. A flow never
 * keeps a ref (refs do not outlive the device's session): an element by ref that no selector picks out is kept
 * as its centre. None when the point is no element's centre (the flow then keeps the point) or the ref was not
 * on that screen. Checked with the same resolution a flow replays with.
 */
export function targetOf(action: StepAction, screen: Observation): Selector | undefined {
  if (!POINTED.has(action.operation) && !(action.operation === 'input_text' && typeof action.arguments['ref'] === 'string')) return undefined;
  const element = elementOf(action, screen);
  if (!element) return undefined;
  const picks = (selector: Selector): boolean => {
    const found = choose(selector, treeCandidates(selector, screen), 'tree');
    return found.kind === 'found' && found.candidate.center.x === element.center.x && found.candidate.center.y === element.center.y;
  };
  const text = element.label ?? element.value;
  const tries: Selector[] = [];
  if (text) tries.push({ text });
  if (element.label) tries.push({ label: element.label, role: element.role });
  if (element.icon) tries.push({ icon: element.icon });
  for (const selector of tries) if (picks(selector)) return selector;
  const ofRole = treeCandidates({ role: element.role }, screen);
  const index = ofRole.findIndex((c) => c.center.x === element.center.x && c.center.y === element.center.y);
  if (index >= 0) return { role: element.role, index };
  return typeof action.arguments['ref'] === 'string' ? { point: { x: Math.round(element.center.x), y: Math.round(element.center.y) } } : undefined;
}
