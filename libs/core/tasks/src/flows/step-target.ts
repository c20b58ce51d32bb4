import type { StepAction } from '../model/task';
import type { Observation } from '../agent/observation';
import type { Selector } from './flow-schema';
import { choose, treeCandidates } from './selector';

/** Operations whose `x, y` name an element a flow can name instead. */
const POINTED = new Set(['tap', 'double_tap', 'long_press']);
/** Planners touch an element at the centre its description gave, rounded: within this many points is "at". */
const AT_CENTRE_PT = 1;

/**
 * The most robust selector that picks out, on the screen the action was decided on, the element the action
 * touched: its text or label first, label + role next, role + index last; none when the point is no element's
 * centre (the flow then keeps the point). Checked with the same resolution a flow replays with.
 */
export function targetOf(action: StepAction, screen: Observation): Selector | undefined {
  if (!POINTED.has(action.operation)) return undefined;
  const { x, y } = action.arguments as { x?: unknown; y?: unknown };
  if (typeof x !== 'number' || typeof y !== 'number') return undefined;
  const element = screen.screen.elements.find((e) => Math.abs(e.center.x - x) <= AT_CENTRE_PT && Math.abs(e.center.y - y) <= AT_CENTRE_PT);
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
  return index >= 0 ? { role: element.role, index } : undefined;
}
