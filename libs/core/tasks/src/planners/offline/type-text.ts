import type { Observation } from '../../agent/observation';
import type { Intent } from '../../goal/intents';
import { openApp } from './open';
import { focusedInputMatches, locate, pickTextInput, TEXT_INPUT_ROLES } from './screen';
import { act, MISSING, NEXT, READY, type SessionState, type Step } from './session';

const COMPOSE_LABEL = /^(?:new(?:\s+\w+)?|compose|add|create|\+)$/i;

type TypeIntent = Extract<Intent, { kind: 'type' }>;

/** "type X in Y": Y is a text field of this screen, else an app; the field focused (or a compose button tapped) first. */
export async function typeText(s: SessionState, intent: TypeIntent, obs: Observation): Promise<Step> {
  const st = s.state;
  if (st.note) return NEXT;
  if (!st.resolved) {
    // "in Notes" names an app unless this screen has a text field of that name ("in the search field").
    st.resolved = {};
    if (intent.into) {
      if (locate(obs, intent.into, { roles: ['textField', 'searchField', 'secureTextField'] }).kind === 'match') st.resolved.field = intent.into;
      else st.resolved.app = s.appName(intent.into) ?? intent.into;
    }
  }
  const { app, field } = st.resolved;
  if (app) {
    const step = await openApp(s, app, obs);
    if (step === MISSING) return { kind: 'fail', message: `There is no app or text field named "${app}".`, reason: 'infeasible' };
    if (step !== READY) return step;
  }
  // The keyboard up, or (where the tree does not show the keyboard) the field our tap focused.
  const ready = obs.screen.keyboardVisible || (st.tries > 0 && obs.screen.elements.some((e) => e.focused && TEXT_INPUT_ROLES.includes(e.role)));
  if (!ready || (field && !focusedInputMatches(obs, field))) {
    const input = pickTextInput(obs, field);
    if (input && st.tries < 2) {
      st.tries += 1;
      return s.tapAt(input, { keyboard: true });
    }
    const compose = obs.screen.elements.find((e) => e.role === 'button' && COMPOSE_LABEL.test(e.label ?? ''));
    if (!input && compose && !st.composed) {
      st.composed = true;
      return s.tapAt(compose, { change: true });
    }
    if (!ready) {
      return { kind: 'fail', message: `There is no text field${field ? ` named "${field}"` : ''} to type into on this screen.`, reason: 'target_not_found' };
    }
  }
  st.note = `Typed "${intent.text}"${intent.into ? ` in ${intent.into}` : ''}`;
  return act('input_text', intent.submit ? { text: intent.text, submit: true } : { text: intent.text }, { textPresent: intent.submit ? undefined : intent.text });
}

export function typeEndState(intent: TypeIntent, lastActionFailed: boolean): string | undefined {
  return lastActionFailed ? `Typed "${intent.text}", but it does not show on the screen.` : undefined;
}
