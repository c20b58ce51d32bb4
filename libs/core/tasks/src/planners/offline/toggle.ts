import type { Observation } from '../../agent/observation';
import type { StepFeedback } from '../../agent/planner';
import { openApp } from './open';
import { findSwitch, isApp, switchIsOn, withoutListNoun } from './screen';
import { searchBySwiping } from './search';
import { appOfPartIn } from './labels';
import { backButton } from './navigate';
import { hasWay, wayTowards } from './settings-ways';
import { ambiguous, MISSING, NEXT, READY, type SessionState, type Step } from './session';

/** Pages gone up, at most, to find the way to a switch. */
const MAX_UPS = 2;

/** "turn on X": its switch tapped until it shows the state asked for (twice at most); in Settings unless the goal is in an app. */
export async function toggle(s: SessionState, target: string, on: boolean, obs: Observation, feedback: StepFeedback | undefined): Promise<Step> {
  const st = s.state;
  const word = on ? 'on' : 'off';
  let match = findSwitch(obs, target);
  // "the 9:30 AM alarm" in the list of alarms: the item's own switch.
  const item = match.kind === 'none' ? withoutListNoun(obs, target) : undefined;
  if (item) match = findSwitch(obs, item);
  if (match.kind === 'ambiguous') return ambiguous(target, match.labels);
  if (match.kind === 'match') {
    const sw = match.item;
    const label = sw.label ?? match.label;
    if (switchIsOn(sw) === on) {
      st.note ??= `${label} was already ${word}`;
      if (st.tries > 0) st.note = `Turned ${word} ${label}`;
      return NEXT;
    }
    if (st.tries >= 2) return { kind: 'fail', message: `${label} did not turn ${word} when tapped.`, reason: 'device_error' };
    st.tries += 1;
    return s.tapAt(sw, { change: true });
  }
  return towardsSwitch(s, target, obs, feedback);
}

/** A step towards `target`'s switch, which this screen does not show: Settings, a row on the way, else scrolling. */
export async function towardsSwitch(s: SessionState, target: string, obs: Observation, feedback: StepFeedback | undefined): Promise<Step> {
  const st = s.state;
  // Switches live in Settings — or in the app a word of the target is part of ("the alarm at 9:30": Clock):
  // go there first when the goal did not.
  const home = appOfPartIn(target) ?? 'Settings';
  if (!st.openedSettings && !isApp(obs, home) && !s.inContextApp(obs)) {
    const step = await openApp(s, home, obs);
    if (step !== READY && step !== MISSING) return step;
    st.openedSettings = true;
  }
  // Not on this screen: a row that leads towards it ("Network & internet" for Wi-Fi), else scroll for it.
  const way = wayTowards(obs, target, st.waysTaken);
  if (way) {
    st.waysTaken.push(way.label ?? target);
    return s.tapAt(way, { change: true }, `"${target}" is under "${way.label ?? ''}"`);
  }
  // A page deeper than the way starts (Internet, after turning Wi-Fi off, for Airplane mode): up a page, then on.
  const up = hasWay(target) && st.waysTaken.length === 0 && st.backs < MAX_UPS ? backButton(obs) : undefined;
  if (up) {
    st.backs += 1;
    return s.tapAt(up, { change: true }, `"${target}" is on a page above this one`);
  }
  return searchBySwiping(s, target, obs, feedback);
}
