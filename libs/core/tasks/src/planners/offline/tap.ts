import type { Observation } from '../../agent/observation';
import type { Decision, StepFeedback } from '../../agent/planner';
import { squash } from './labels';
import { glyphNamed, locate } from './screen';
import { dismissKeyboard, searchBySwiping } from './search';
import { ambiguous, NEXT, type SessionState, type Step } from './session';

/** "tap X": an element or text of the screen, an icon by its glyph, text read from the pixels, or off screen. */
export async function tap(s: SessionState, target: string, obs: Observation, feedback: StepFeedback | undefined): Promise<Step> {
  const st = s.state;
  if (st.note) return NEXT;
  if (s.answered.has(squash(target)) && !obs.screen.alert) {
    st.note = `Tapped ${target} (on the alert)`;
    return NEXT;
  }
  const match = locate(obs, target, { includeText: true });
  if (match.kind === 'ambiguous') return ambiguous(target, match.labels);
  if (match.kind === 'match') {
    st.note = `Tapped ${match.label}`;
    return s.tapAt(match.item, { change: true });
  }
  const keyboard = dismissKeyboard(s, obs, target);
  if (keyboard) return keyboard;
  const icon = await tapIcon(s, target);
  if (icon) return icon;
  const text = await s.findTextOnce(target);
  if (text) {
    st.note = `Tapped ${text.label ?? target}`;
    return s.tapAt(text, { change: true });
  }
  return searchBySwiping(s, target, obs, feedback);
}

export function tapEndState(s: SessionState, target: string, lastActionFailed: boolean): string | undefined {
  return lastActionFailed && !s.answered.has(squash(target)) ? `Tapped ${target}, but the screen did not change.` : undefined;
}

/** "the trash icon", "the gear": an unlabeled button found by its glyph; the first in reading order. */
async function tapIcon(s: SessionState, target: string): Promise<Decision | undefined> {
  const glyph = glyphNamed(target);
  if (!glyph || s.state.iconLookupDone) return undefined;
  s.state.iconLookupDone = true;
  const matches = await s.iconMatches(glyph);
  if (matches.length === 0) return undefined;
  const [first] = matches.sort((a, b) => (Math.abs(a.center.y - b.center.y) > 12 ? a.center.y - b.center.y : a.center.x - b.center.x));
  const which = matches.length > 1 ? ` (the first of ${matches.length}, in reading order)` : '';
  s.state.note = `Tapped the ${glyph} icon${which}`;
  return s.tapAt(first, { change: true }, `the ${glyph} icon by its glyph${which}`);
}
