import type { Observation } from '../../agent/observation';
import type { Decision } from '../../agent/planner';
import type { Intent } from '../../goal/intents';
import { answerAlert } from './alerts';
import { closestLabel, squash } from './labels';
import { locateOne, quoteList } from './screen';
import { NEXT, type SessionState, type Step } from './session';

/** Alerts answered in one goal before giving up (each answer is one step). */
const MAX_ALERT_ANSWERS = 3;

/** "allow once", "deny": the alert on screen answered with the button those words name. */
export function answer(s: SessionState, words: string, obs: Observation): Step {
  const st = s.state;
  if (st.acted) return NEXT;
  const alert = obs.screen.alert;
  if (!alert) {
    st.note = s.answered.size > 0 ? 'The alert was already answered' : `No alert was up to ${words.toLowerCase()}`;
    return NEXT;
  }
  const chosen = answerAlert(words, alert.buttons);
  const button = chosen && locateOne(obs, chosen.button, { roles: ['button'], minCloseness: 6 });
  if (!chosen || !button) {
    return { kind: 'fail', message: `The alert offers ${quoteList(alert.buttons)}; none of them says "${words}".`, reason: 'target_not_found' };
  }
  s.answered.add(squash(chosen.button));
  st.note = `Answered the alert "${alert.title ?? alert.message ?? ''}" with "${chosen.button}"`;
  return s.tapAt(button, { change: true }, st.note);
}

/**
 * A system alert covering the screen: answered as the goal's words say, else with the least permissive
 * choice that lets the goal go on. Left to the clause when it is the one answering it ("tap Allow Once").
 */
export function answerAlertInTheWay(s: SessionState, obs: Observation, intent: Intent | undefined): Decision | undefined {
  const alert = obs.screen.alert;
  if (!alert || alert.buttons.length === 0) return undefined;
  if (intent?.kind === 'answer') return undefined;
  if (intent?.kind === 'tap' && closestLabel(intent.target, alert.buttons, (b) => b, 3).kind === 'match') return undefined;
  const title = alert.title ?? alert.message ?? 'alert';
  const chosen = answerAlert(s.context.goal, alert.buttons);
  if (!chosen || s.alertAnswers >= MAX_ALERT_ANSWERS) {
    return {
      kind: 'fail',
      message: `An alert ("${title}") covers the screen; say which button to tap (${alert.buttons.join(', ')}).`,
      reason: 'target_not_found',
    };
  }
  const button = locateOne(obs, chosen.button, { roles: ['button'], minCloseness: 6 });
  if (!button) return { kind: 'fail', message: `The alert "${title}" shows "${chosen.button}" but it cannot be tapped.`, reason: 'device_error' };
  s.alertAnswers += 1;
  s.answered.add(squash(chosen.button));
  const why = `Answered the alert "${title}" with "${chosen.button}" (${chosen.why})`;
  s.notes.push(why);
  return s.tapAt(button, { change: true }, why);
}
