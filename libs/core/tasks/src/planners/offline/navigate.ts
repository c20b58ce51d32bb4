import type { Observation } from '../../agent/observation';
import type { Decision, StepFeedback } from '../../agent/planner';
import { closestLabel } from './labels';
import { openApp } from './open';
import { isApp, screenTitle, type Spot } from './screen';
import type { ScrollDirection } from '../../goal/intents';
import { act, MISSING, NEXT, READY, type SessionState, type Step } from './session';

/** Back presses for "go back to X". */
const MAX_BACKS = 5;

/** "go home". */
export function home(s: SessionState): Step {
  return once(s, () => act('press_button', { button: 'home' }));
}

/** "scroll down": the finger moves the other way. */
export function scroll(s: SessionState, finger: ScrollDirection): Step {
  return once(s, () => act('swipe', { direction: finger }, { change: true }));
}

/** "go to apex.example": the address opened in the browser. */
export function visit(s: SessionState, url: string): Step {
  return once(s, () => {
    s.state.note = `Went to ${url}`;
    return act('open_url', { url }, { change: true });
  });
}

/** Intents that are one action and done. */
function once(s: SessionState, decision: () => Decision): Step {
  return s.state.acted ? NEXT : decision();
}

/** "go back": the screen's back button, else the device's own back button (where it has one). */
export function back(s: SessionState, obs: Observation, feedback: StepFeedback | undefined): Step {
  if (s.state.acted) {
    const refused = deviceBackRefused(feedback);
    return refused ? { kind: 'fail', message: `There is no back button on this screen, and the device has none to press (${refused}).`, reason: 'infeasible' } : NEXT;
  }
  const button = backButton(obs);
  if (!button) {
    s.state.note = 'Went back (the back button)';
    return act('press_button', { button: 'back' }, { change: true });
  }
  s.state.note = `Went back${button.label ? ` (${button.label})` : ''}`;
  return s.tapAt(button, { change: true });
}

/** Why the device's back button could not be pressed, when the last action tried and failed. */
function deviceBackRefused(feedback: StepFeedback | undefined): string | undefined {
  if (feedback?.action.operation !== 'press_button' || feedback.action.arguments['button'] !== 'back') return undefined;
  return feedback.outcome.status === 'error' ? feedback.outcome.detail : undefined;
}

/** "go back to General": back until that screen shows (bounded), or the app of that name. */
export async function backTo(s: SessionState, to: string, obs: Observation, feedback: StepFeedback | undefined): Promise<Step> {
  const st = s.state;
  if (atScreen(obs, to)) {
    st.note = `Went back to ${screenTitle(obs) ?? to}`;
    return NEXT;
  }
  const button = backButton(obs);
  if (deviceBackRefused(feedback)) st.noDeviceBack = true;
  if (st.backs < MAX_BACKS && (button || !st.noDeviceBack)) {
    st.backs += 1;
    return button ? s.tapAt(button, { change: true }, `going back to ${to}`) : act('press_button', { button: 'back' }, { change: true }, `going back to ${to}`);
  }
  if (s.appName(to) || (await s.lookupApp(to))) {
    const step = await openApp(s, s.appName(to) ?? to, obs);
    if (step === READY) {
      st.note = `Went back to ${to}`;
      return NEXT;
    }
    if (step !== MISSING) return step;
  }
  return { kind: 'fail', message: `Could not go back to "${to}": no earlier screen of that name.`, reason: 'target_not_found' };
}

export function backEndState(to: string | undefined, obs: Observation): string | undefined {
  return to && !atScreen(obs, to) ? `The screen is not ${to}.` : undefined;
}

/** The screen's own back (or up) button, if it shows one. */
export function backButton(obs: Observation): Spot | undefined {
  const width = obs.screen.screen.width;
  const buttons = obs.screen.elements.filter((e) => e.role === 'button' && !e.disabled);
  return buttons.find((e) => /^(?:back|‹|<)$/i.test(e.label ?? '')) ?? buttons.find((e) => e.center.y < 120 && e.center.x < width * 0.35);
}

/** The screen is `name`: its title, or the app of that name at its first screen. */
function atScreen(obs: Observation, name: string): boolean {
  const title = screenTitle(obs);
  if (title && closestLabel(name, [title], (t) => t, 3).kind === 'match') return true;
  return isApp(obs, name) && !backButton(obs);
}
