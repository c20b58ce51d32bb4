import type { Observation } from '../../agent/observation';
import type { StepFeedback } from '../../agent/planner';
import type { Intent } from '../../goal/intents';
import { findSwitch, switchIsOn } from './screen';
import { NEXT, type SessionState, type Step } from './session';
import { towardsSwitch } from './toggle';

/**
 * "but leave Bluetooth on", "without changing anything else": a constraint, never an action. No clause of
 * the goal touches what it names (only the switches a clause names are ever tapped); the result says how it
 * was left, as its switch shows it — looked for when this screen does not show it, since another clause may
 * have changed it on the way (on Android, Airplane mode turns Wi-Fi off). A switch left in another state than
 * the goal asked for fails the goal, saying so: it is never reported as kept.
 */
export async function keep(s: SessionState, intent: Extract<Intent, { kind: 'keep' }>, obs: Observation, feedback: StepFeedback | undefined): Promise<Step> {
  const st = s.state;
  if (!intent.target) {
    st.note = 'Changed nothing else';
    return NEXT;
  }
  const match = findSwitch(obs, intent.target);
  if (match.kind !== 'match') {
    // Without a state asked for, the goal only said "do not touch it": nothing touched it.
    if (intent.on === undefined) {
      st.note = `Left ${intent.target} untouched`;
      return NEXT;
    }
    return towardsSwitch(s, intent.target, obs, feedback);
  }
  const label = match.item.label ?? match.label;
  const on = switchIsOn(match.item);
  const word = on ? 'on' : 'off';
  if (intent.on === undefined || intent.on === on) {
    st.note = `Left ${label} ${word}, untouched`;
    return NEXT;
  }
  const asked = intent.on ? 'on' : 'off';
  return { kind: 'fail', message: `${label} is ${word}, not ${asked}: the goal asked to leave it ${asked} and not to touch it.`, reason: 'target_not_found' };
}
