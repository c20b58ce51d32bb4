import { isInteractive } from '@apex/port';
import type { Observation } from '../../agent/observation';
import type { StepFeedback } from '../../agent/planner';
import type { Intent } from '../../goal/intents';
import { ask, valueOf } from './ask';
import { tab } from './item-control';
import { isWholeOf, partOfApp } from './labels';
import { open, openApp, openEndState } from './open';
import { locate } from './screen';
import { searchBySwiping } from './search';
import { wayTowards } from './settings-ways';
import { ambiguous, MISSING, NEXT, READY, type SessionState, type Step } from './session';
import { tapEndState } from './tap';

type ShowIntent = Extract<Intent, { kind: 'show' }>;

/**
 * "show me X": what X is on the phone decides, not the words. An app is opened; a part of an app ("the
 * stopwatch") opens its app, then shows that part; a tab, row or button on screen is navigated to; a label that
 * shows a value ("the serial number") is read, as a question; elsewhere, X is looked for where the device shows
 * facts about itself (as a question does). Once X is known, the clause is that family's.
 */
export async function show(s: SessionState, intent: ShowIntent, obs: Observation, feedback: StepFeedback | undefined): Promise<Step> {
  const st = s.state;
  const target = intent.target;
  switch (st.showAs) {
    case 'open':
      return open(s, target, obs, feedback);
    case 'tab':
      return tab(s, target, obs, feedback);
    case 'ask':
      return ask(s, asQuestion(intent), obs, feedback);
    case 'shown':
      return NEXT;
  }
  if (intent.app) {
    const step = await openApp(s, intent.app, obs);
    if (step === MISSING) return { kind: 'fail', message: `There is no app named "${intent.app}" on this device.`, reason: 'infeasible' };
    if (step !== READY) return step;
  }
  const inApp = intent.app !== undefined || s.inContextApp(obs);
  // Outside an app, an app's own name opens it (a home screen may show its icons as plain texts).
  if (!inApp && !partOfApp(target) && (s.appName(target) ?? (await s.lookupApp(target))) !== undefined) return decided(s, 'open', () => open(s, target, obs, feedback));
  // "the stopwatch" is not the Clock icon, nor Clock's title: only the part itself counts on screen.
  const here = locate(withoutWhole(obs, target), target, { includeText: true, minCloseness: 3 });
  if (here.kind === 'ambiguous') return ambiguous(target, here.labels);
  if (here.kind === 'match') {
    const role = here.item.role;
    // An app's icon: the app. A tab, button or link: where it leads. A row: its value when it shows one, else where it leads.
    if (role === 'icon') return decided(s, 'open', () => open(s, target, obs, feedback));
    if (['button', 'tab', 'link'].includes(role)) return decided(s, 'tab', () => tab(s, target, obs, feedback));
    if (!intent.page && valueOf(obs, here.item)) return decided(s, 'ask', () => ask(s, asQuestion(intent), obs, feedback));
    if (isInteractive(role)) return decided(s, 'tab', () => tab(s, target, obs, feedback));
    // Already on screen, as a title or text: nothing to do.
    st.showAs = 'shown';
    st.note = `"${here.label}" is on the screen`;
    return NEXT;
  }
  if (!inApp) {
    // "the stopwatch": its app first, where the part shows. A page: Settings, where the device's own pages are.
    // Anything else is a value, looked for where the device shows facts about itself.
    const app = s.appName(target) ?? (await s.lookupApp(target))?.name;
    if (!app && !intent.page) return decided(s, 'ask', () => ask(s, asQuestion(intent), obs, feedback));
    const where = app ?? 'Settings';
    const step = await openApp(s, where, obs);
    if (step === MISSING) return { kind: 'fail', message: `There is no app named "${where}" on this device.`, reason: 'infeasible' };
    if (step !== READY) return step;
  }
  // A page under another one ("Internet" under "Network & internet"): the row on the way.
  const way = intent.page ? wayTowards(obs, target, st.waysTaken) : undefined;
  if (way) {
    st.waysTaken.push(way.label ?? target);
    return s.tapAt(way, { change: true }, `"${target}" is under "${way.label ?? ''}"`);
  }
  return searchBySwiping(s, target, obs, feedback);
}

/** What the last "show" clause should have left on screen; undefined when it holds. */
export function showEndState(s: SessionState, intent: ShowIntent, obs: Observation, lastActionFailed: boolean): string | undefined {
  if (s.state.showAs === 'tab') return tapEndState(s, intent.target, lastActionFailed);
  if (s.state.showAs === 'open') return openEndState(s, intent.target, obs, lastActionFailed);
  return undefined;
}

function withoutWhole(obs: Observation, target: string): Observation {
  if (!partOfApp(target)) return obs;
  const screen = obs.screen;
  return {
    ...obs,
    screen: { ...screen, elements: screen.elements.filter((e) => !isWholeOf(target, e.label)), staticText: screen.staticText?.filter((t) => !isWholeOf(target, t.text)) },
  };
}

function decided(s: SessionState, as: 'open' | 'tab' | 'ask', step: () => Promise<Step> | Step): Promise<Step> | Step {
  s.state.showAs = as;
  return step();
}

function asQuestion(intent: ShowIntent): Extract<Intent, { kind: 'ask' }> {
  return { kind: 'ask', subject: `the ${intent.target}`, read: 'value', target: intent.target, app: intent.app };
}
