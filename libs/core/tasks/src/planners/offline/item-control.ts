import { isOn, type Observation, type ScreenElement } from '../../agent/observation';
import type { StepFeedback } from '../../agent/planner';
import type { Intent } from '../../goal/intents';
import { openApp } from './open';
import { locate, type Spot } from './screen';
import { searchBySwiping } from './search';
import { ambiguous, MISSING, NEXT, READY, type SessionState, type Step } from './session';
import { tap } from './tap';

/** Where checklists live when the goal names no app and the screen does not show the item. */
const CHECKLIST_APP = 'Reminders';
/** Controls that mark an item: its check button, checkbox or switch. */
const CONTROL_ROLES = ['button', 'switch', 'checkbox', 'radio'];
/** Half the height of a row, when the element's bounds are not known (points). */
const ROW_HALF_HEIGHT = 22;

/**
 * The control belonging to `item`: an element of one of `roles` on the same row (its vertical centre within
 * the item's bounds), nearest first. Undefined when the row has none (then the item itself is the control).
 */
export function controlOf(obs: Observation, item: Spot, roles: readonly string[] = CONTROL_ROLES): ScreenElement | undefined {
  const bounds = (item as Partial<ScreenElement>).bounds;
  const half = bounds ? bounds.height / 2 : ROW_HALF_HEIGHT;
  return obs.screen.elements
    .filter((e) => roles.includes(e.role) && !e.disabled && e.ref !== item.ref && Math.abs(e.center.y - item.center.y) < half)
    .sort((a, b) => Math.abs(a.center.x - item.center.x) - Math.abs(b.center.x - item.center.x))[0];
}

/** Done, for a check control or a row: on, selected, or labelled so. */
function isDone(e: Pick<ScreenElement, 'value' | 'selected' | 'label'>): boolean {
  return isOn(e.value) || e.selected === true || /^(?:completed?|done|checked)$/i.test(e.label ?? '');
}

/** "mark Buy milk as done": the control on the item's row tapped until the item shows the state asked for. */
export async function mark(s: SessionState, intent: Extract<Intent, { kind: 'mark' }>, obs: Observation, feedback: StepFeedback | undefined): Promise<Step> {
  const st = s.state;
  const app = intent.app ?? st.resolved?.app;
  if (app) {
    const step = await openApp(s, app, obs);
    if (step === MISSING) return { kind: 'fail', message: `There is no app named "${app}" on this device.`, reason: 'infeasible' };
    if (step !== READY) return step;
  }
  const row = locate(obs, intent.item, { includeText: true, minCloseness: 3 });
  if (row.kind === 'ambiguous') return ambiguous(intent.item, row.labels);
  if (row.kind === 'none') {
    // Not here: the checklist app, unless the goal works in an app already.
    if (!app && !s.inContextApp(obs)) {
      st.resolved = { app: CHECKLIST_APP };
      return mark(s, intent, obs, feedback);
    }
    return searchBySwiping(s, intent.item, obs, feedback);
  }
  const control = controlOf(obs, row.item);
  const word = intent.done ? 'done' : 'not done';
  const done = isDone(row.item as ScreenElement) || (control !== undefined && isDone(control));
  if (done === intent.done) {
    st.note = st.tries > 0 ? `Marked "${row.label}" as ${word}` : `"${row.label}" was already ${word}`;
    return NEXT;
  }
  if (st.tries >= 2) return { kind: 'fail', message: `"${row.label}" did not turn ${word} when its control was tapped.`, reason: 'device_error' };
  st.tries += 1;
  return s.tapAt(control ?? row.item, { change: true }, `the control in the row of "${row.label}"`);
}

/** "open the timer in Clock": the tab of that name shown (tapped unless already selected); else a tap on what the name shows. */
export async function tab(s: SessionState, name: string, obs: Observation, feedback: StepFeedback | undefined): Promise<Step> {
  const st = s.state;
  const match = locate(obs, name, { roles: ['button', 'tab', 'cell', 'link'] });
  if (match.kind === 'ambiguous') return ambiguous(name, match.labels);
  if (match.kind === 'match' && !st.note && inTabBar(obs, match.item as ScreenElement)) {
    if ((match.item as ScreenElement).selected) {
      st.note = st.tries > 0 ? `Showed the ${match.label} tab` : `The ${match.label} tab was already showing`;
      return NEXT;
    }
    if (st.tries >= 2) return { kind: 'fail', message: `The ${match.label} tab did not show when tapped.`, reason: 'device_error' };
    st.tries += 1;
    return s.tapAt(match.item, { change: true }, `the ${match.label} tab`);
  }
  return tap(s, name, obs, feedback);
}

/** A tab: selected itself, or on one row with a selected button (a tab bar). */
function inTabBar(obs: Observation, element: ScreenElement): boolean {
  if (element.selected) return true;
  return obs.screen.elements.some((e) => e !== element && e.selected && ['button', 'tab'].includes(e.role) && Math.abs(e.center.y - element.center.y) < ROW_HALF_HEIGHT / 2);
}
