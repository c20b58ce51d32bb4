import type { Observation } from '../../agent/observation';
import type { Intent } from '../../goal/intents';
import { findSwitch, switchIsOn } from './screen';
import { NEXT, type SessionState, type Step } from './session';

/**
 * "but leave Bluetooth on", "without changing anything else": a constraint, never an action. No clause of
 * the goal touches what it names (only the switches a clause names are ever tapped); the result says how it
 * was left, as the screen shows it.
 */
export function keep(s: SessionState, intent: Extract<Intent, { kind: 'keep' }>, obs: Observation): Step {
  const st = s.state;
  if (!intent.target) {
    st.note = 'Changed nothing else';
    return NEXT;
  }
  const match = findSwitch(obs, intent.target);
  if (match.kind !== 'match') {
    st.note = `Left ${intent.target} untouched`;
    return NEXT;
  }
  const label = match.item.label ?? match.label;
  const on = switchIsOn(match.item);
  const word = on ? 'on' : 'off';
  st.note = intent.on === undefined || intent.on === on ? `Left ${label} ${word}, untouched` : `Left ${label} as it was (${word}, not ${intent.on ? 'on' : 'off'}): the goal asked not to change it`;
  return NEXT;
}
