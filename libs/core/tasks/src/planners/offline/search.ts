import type { Observation } from '../../agent/observation';
import type { Decision, StepFeedback } from '../../agent/planner';
import { act, ambiguous, NEXT, type SessionState, type Step } from './session';
import { locate, shows } from './screen';

/** Swipes while looking for a target off screen, per direction. */
const MAX_SEARCH_SWIPES = 6;
/** Buttons apps show while the keyboard is up to put it away. */
const KEYBOARD_DONE = /^(?:done|cancel|hide keyboard|dismiss keyboard)$/i;

/** "scroll until X shows". */
export async function find(s: SessionState, target: string, obs: Observation, feedback: StepFeedback | undefined): Promise<Step> {
  const match = locate(obs, target, { includeText: true });
  if (match.kind === 'ambiguous') return ambiguous(target, match.labels);
  if (match.kind === 'match') {
    s.state.note = `Scrolled until "${match.label}" showed`;
    return NEXT;
  }
  return dismissKeyboard(s, obs, target) ?? searchBySwiping(s, target, obs, feedback);
}

export function findEndState(target: string, obs: Observation): string | undefined {
  return shows(obs, target) ? undefined : `"${target}" is not on the screen.`;
}

/** The keyboard may cover what the goal names: put it away (the app's Done, or return in a search field). */
export function dismissKeyboard(s: SessionState, obs: Observation, target: string): Decision | undefined {
  const st = s.state;
  if (!obs.screen.keyboardVisible || st.keyboardDismissals >= 2) return undefined;
  st.keyboardDismissals += 1;
  const done = obs.screen.elements.find((e) => e.role === 'button' && !e.disabled && KEYBOARD_DONE.test(e.label ?? ''));
  const why = `the keyboard may cover "${target}": dismissing it`;
  if (done) return s.tapAt(done, { keyboard: false }, why);
  const focused = obs.screen.elements.find((e) => e.focused && e.role === 'searchField');
  if (focused) return act('input_text', { text: '\n' }, { keyboard: false }, why);
  return undefined;
}

/**
 * Swipes the list one way (down first unless the goal said up), then the other, looking for `target`;
 * a direction ends when a swipe leaves the screen unchanged or after MAX_SEARCH_SWIPES.
 */
export function searchBySwiping(s: SessionState, target: string, obs: Observation, feedback: StepFeedback | undefined): Step {
  const st = s.state;
  if (obs.screen.alert) {
    const alert = obs.screen.alert;
    return {
      kind: 'fail',
      message: `An alert ("${alert.title ?? alert.message ?? ''}") covers the screen and "${target}" is not on it; say which button to tap (${alert.buttons.join(', ')}).`,
      reason: 'target_not_found',
    };
  }
  const lastSwipeDidNothing = feedback?.action.operation === 'swipe' && feedback.outcome.status !== 'ok';
  if (lastSwipeDidNothing || st.swipes >= MAX_SEARCH_SWIPES) {
    if (st.turnedSearch) {
      return { kind: 'fail', message: `Could not find "${target}" on this screen, even after scrolling it both ways.`, reason: 'target_not_found' };
    }
    st.turnedSearch = true;
    st.searchDirection = st.searchDirection === 'down' ? 'up' : 'down';
    st.swipes = 0;
  }
  st.swipes += 1;
  // Finger up reveals what is below.
  return act('swipe', { direction: st.searchDirection === 'down' ? 'up' : 'down' }, { change: true }, `looking for "${target}"`);
}
