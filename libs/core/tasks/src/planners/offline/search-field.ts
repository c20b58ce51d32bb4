import type { Observation, ScreenElement } from '../../agent/observation';
import type { StepFeedback } from '../../agent/planner';
import type { Intent } from '../../goal/intents';
import { openApp } from './open';
import { locate, locateOne } from './screen';
import { act, MISSING, NEXT, READY, type SessionState, type Step } from './session';

type SearchIntent = Extract<Intent, { kind: 'search' }>;

/** The screen's search field: a search field, else a text field named (or hinting, "Search here") for searching. */
function searchField(obs: Observation): ScreenElement | undefined {
  const fields = obs.screen.elements.filter((e) => !e.disabled && (e.role === 'searchField' || (e.role === 'textField' && /search/i.test(`${e.label ?? ''} ${e.value ?? ''}`))));
  return fields[0];
}

/** "search Maps for coffee": the app opened, its search field focused, the words typed and submitted. */
export async function searchApp(s: SessionState, intent: SearchIntent, obs: Observation, feedback: StepFeedback | undefined): Promise<Step> {
  const st = s.state;
  if (st.note) {
    if (feedback?.outcome.status === 'error') return { kind: 'fail', message: `Could not search for "${intent.query}": ${feedback.outcome.detail}`, reason: 'device_error' };
    return NEXT;
  }
  if (intent.app) {
    const step = await openApp(s, intent.app, obs);
    if (step === MISSING) return { kind: 'fail', message: `There is no app named "${intent.app}" on this device.`, reason: 'infeasible' };
    if (step !== READY) return step;
  }
  const field = searchField(obs);
  // Ready once the field has focus and the keyboard is up — or after our own tap focused it, where the device's
  // tree does not show the keyboard (Android's dump holds the app's window only).
  const focused = field?.focused && (obs.screen.keyboardVisible || st.tries > 0);
  if (!focused) {
    if (field && st.tries < 2) {
      st.tries += 1;
      return s.tapAt(field, { keyboard: true }, 'the search field');
    }
    // No field shown: a Search button or tab opens one.
    const button = !field && st.phase === 0 ? locateOne(obs, 'Search', { roles: ['button', 'tab', 'link'], minCloseness: 4 }) : undefined;
    if (button) {
      st.phase = 1;
      return s.tapAt(button, { change: true }, 'opening the search');
    }
    if (!obs.screen.keyboardVisible) {
      const where = obs.screen.app?.name ?? intent.app ?? 'this screen';
      return { kind: 'fail', message: `There is no search field in ${where}.`, reason: 'target_not_found' };
    }
  }
  st.note = `Searched${intent.app ? ` ${obs.screen.app?.name ?? intent.app}` : ''} for "${intent.query}"`;
  return act('input_text', { text: intent.query, submit: true });
}

/** The search field still holds the words (the app may have moved on to results: then any field does). */
export function searchEndState(intent: SearchIntent, obs: Observation): string | undefined {
  const holds = obs.screen.elements.some((e) => ['searchField', 'textField'].includes(e.role) && (e.value ?? '').includes(intent.query));
  return holds || locate(obs, intent.query, { includeText: true }).kind !== 'none' ? undefined : `"${intent.query}" does not show on the screen after the search.`;
}
