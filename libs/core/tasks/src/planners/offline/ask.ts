import { isInteractive } from '@apex/port';
import type { Observation, ScreenElement } from '../../agent/observation';
import type { StepFeedback } from '../../agent/planner';
import type { Intent } from '../../goal/intents';
import type { TaskAnswer } from '../../model/task';
import { closeness } from './labels';
import { openApp } from './open';
import { findSwitch, isApp, locate, locateOne, switchIsOn, type Spot } from './screen';
import { searchBySwiping } from './search';
import { ambiguous, MISSING, NEXT, READY, type SessionState, type Step } from './session';
import { towardsSwitch } from './toggle';

type AskIntent = Extract<Intent, { kind: 'ask' }>;

/** Where a device shows facts about itself, as the rows on the way are labelled (iOS, then Android). */
const ABOUT_WAY = ['General', 'About', 'About phone'];
/** Facts whose row is labelled differently per platform (iOS first): any spelling is the same fact. */
const FACT_LABELS: ReadonlyArray<readonly string[]> = [['Model Name', 'Model']];
/** Texts on one row differ in centre by less than this (points). */
const SAME_ROW = 12;

/** A question: read, put in the result and in the task's `answer`; no clause of a question changes anything. */
export async function ask(s: SessionState, intent: AskIntent, obs: Observation, feedback: StepFeedback | undefined): Promise<Step> {
  switch (intent.read) {
    case 'switch':
      return askSwitch(s, intent.target ?? '', obs, feedback);
    case 'count':
      return askCount(s, intent, obs);
    case 'value':
      return askValue(s, intent, obs, feedback);
    default:
      return askStatus(s, intent);
  }
}

function answered(s: SessionState, answer: TaskAnswer, sentence: string): Step {
  s.answer = answer;
  s.state.note = sentence;
  return NEXT;
}

/** Device facts from device_status: nothing on screen changes. */
async function askStatus(s: SessionState, intent: AskIntent): Promise<Step> {
  const status = (await s.context.query('device_status', {})).output as {
    platform?: string;
    name?: string;
    deviceName?: string;
    model?: string;
    osVersion?: string;
    orientation?: string;
    locked?: boolean;
    battery?: { level: number; state: string };
    foregroundApp?: { appId: string; name?: string };
  };
  const system = status.platform === 'android' ? 'Android' : 'iOS';
  const facts: Record<string, { subject: string; value: string | number | boolean | undefined; say?: string }> = {
    os_version: { subject: `${system} version`, value: status.osVersion },
    model: { subject: 'model name', value: status.model },
    device_name: { subject: 'device name', value: status.deviceName ?? status.name },
    battery: { subject: 'battery level', value: status.battery && Math.round(status.battery.level <= 1 ? status.battery.level * 100 : status.battery.level), say: '%' },
    orientation: { subject: 'orientation', value: status.orientation },
    locked: { subject: 'locked', value: status.locked },
    foreground_app: { subject: 'app in front', value: status.foregroundApp ? (status.foregroundApp.name ?? status.foregroundApp.appId) : 'the home screen' },
  };
  const fact = facts[intent.read];
  if (!fact || fact.value === undefined) return { kind: 'fail', message: `The device does not report ${intent.subject}.`, reason: 'target_not_found' };
  const sentence =
    intent.read === 'locked' ? `The phone is ${fact.value ? 'locked' : 'not locked'}` : `The ${fact.subject} is ${String(fact.value)}${fact.say ?? ''}`;
  return answered(s, { subject: fact.subject, value: fact.value, source: 'device' }, sentence);
}

/** "is Wi-Fi on?": the switch found as "turn on" finds it (Settings, the rows on the way, scrolling), read, never tapped. */
async function askSwitch(s: SessionState, target: string, obs: Observation, feedback: StepFeedback | undefined): Promise<Step> {
  const match = findSwitch(obs, target);
  if (match.kind === 'ambiguous') return ambiguous(target, match.labels);
  if (match.kind === 'match') {
    const label = match.item.label ?? match.label;
    const on = switchIsOn(match.item);
    return answered(s, { subject: label, value: on, source: 'screen' }, `${on ? 'Yes' : 'No'}: ${label} is ${on ? 'on' : 'off'}`);
  }
  return towardsSwitch(s, target, obs, feedback);
}

/** A number shown next to a word: "5 remaining", "12 Photos". */
function countsShown(obs: Observation): Array<{ n: number; words: string; text: string }> {
  const texts = [...(obs.screen.staticText ?? []).map((t) => t.text), ...obs.screen.elements.map((e) => e.label ?? '')];
  const found: Array<{ n: number; words: string; text: string }> = [];
  for (const text of texts) {
    const m = text.match(/^(\d+)\s+(.+)$/) ?? text.match(/^(.+?):?\s+(\d+)$/)?.slice(0, 3).reverse();
    if (m) found.push({ n: Number(m[1]), words: m[2], text });
  }
  return found;
}

/** "how many reminders are left?": the app the noun names opened, then the count it shows read. */
async function askCount(s: SessionState, intent: AskIntent, obs: Observation): Promise<Step> {
  const st = s.state;
  const noun = intent.target ?? '';
  const app = intent.app ?? (isApp(obs, noun) ? undefined : (st.resolved?.app ?? s.appName(noun) ?? (await s.lookupApp(noun))?.name));
  if (app) {
    st.resolved = { app };
    const step = await openApp(s, app, obs);
    if (step === MISSING) return { kind: 'fail', message: `There is no app named "${app}" on this device.`, reason: 'infeasible' };
    if (step !== READY) return step;
  }
  const left = /\bleft\b/i.test(intent.subject);
  const counts = countsShown(obs);
  const chosen =
    (left ? counts.find((c) => /\b(?:remaining|left|to\s*do|open|incomplete)\b/i.test(c.words)) : undefined) ??
    counts.find((c) => closeness(noun, c.words) >= 3 || closeness(noun.replace(/s$/i, ''), c.words.replace(/s$/i, '')) >= 3);
  if (chosen) return answered(s, { subject: intent.subject.replace(/^how many /, '').replace(/ are left$/, ' left'), value: chosen.n, source: 'screen' }, `${chosen.n}: the screen shows "${chosen.text}"`);
  return { kind: 'fail', message: `The screen shows no count of ${noun}.`, reason: 'target_not_found' };
}

/** The value shown on the same row as `label`, right of it (a detail text), or the element's own value. */
export function valueOf(obs: Observation, label: Spot): string | undefined {
  const element = label as Partial<ScreenElement>;
  if (element.value && element.value !== label.label && element.role !== 'cell') return element.value;
  // Texts, and values of controls: the label of a neighbouring button or tab is no value of this one.
  const texts = obs.screen.elements.map((e) => ({ text: (isInteractive(e.role) ? e.value : (e.value ?? e.label)) ?? '', center: e.center }));
  const right = [...(obs.screen.staticText ?? []).map((t) => ({ text: t.text, center: t.center })), ...texts]
    .filter((t) => t.text && t.text !== label.label && Math.abs(t.center.y - label.center.y) < SAME_ROW && t.center.x > label.center.x)
    .sort((a, b) => a.center.x - b.center.x);
  return right[0]?.text;
}

/** The text beside `label` on its row in the whole tree (a cell's detail, which the screen's description folds away). */
async function rowValue(s: SessionState, label: Spot): Promise<string | undefined> {
  try {
    const tree = await s.context.query('get_ui_tree', { format: 'flat' });
    const nodes = (tree.output['nodes'] as Array<{ label?: string; value?: string; center: { x: number; y: number }; role: string }>) ?? [];
    const texts = nodes
      .map((n) => ({ text: n.value ?? n.label ?? '', center: n.center, role: n.role }))
      .filter((n) => n.text && n.text !== label.label && n.role === 'text' && Math.abs(n.center.y - label.center.y) < SAME_ROW)
      .sort((a, b) => b.center.x - a.center.x);
    return texts[0]?.text;
  } catch {
    return undefined;
  }
}

/** The row `target` names, under any of its platforms' spellings (the first spelling that shows wins). */
function locateFact(obs: Observation, target: string): ReturnType<typeof locate> {
  const spellings = FACT_LABELS.find((f) => f.some((l) => closeness(target, l) === 6)) ?? [target];
  for (const spelling of spellings) {
    const match = locate(obs, spelling, { includeText: true, minCloseness: spelling === target ? 3 : 6 });
    if (match.kind !== 'none') return match;
  }
  return { kind: 'none' };
}

/** "what is the serial number?": the label found (in the app named, else where devices show facts about themselves), its value read. */
async function askValue(s: SessionState, intent: AskIntent, obs: Observation, feedback: StepFeedback | undefined): Promise<Step> {
  const st = s.state;
  const target = intent.target ?? '';
  if (intent.app) {
    const step = await openApp(s, intent.app, obs);
    if (step === MISSING) return { kind: 'fail', message: `There is no app named "${intent.app}" on this device.`, reason: 'infeasible' };
    if (step !== READY) return step;
  }
  const match = locateFact(obs, target);
  if (match.kind === 'ambiguous') return ambiguous(target, match.labels);
  if (match.kind === 'match') {
    const value = valueOf(obs, match.item) ?? (await rowValue(s, match.item));
    if (value) return answered(s, { subject: match.label, value, source: 'screen' }, `The ${match.label} is ${value}`);
    if (intent.app || s.inContextApp(obs)) {
      return { kind: 'fail', message: `"${match.label}" is on the screen, but shows no value to read.`, reason: 'target_not_found' };
    }
  }
  // Where devices show facts about themselves, unless the goal works in an app.
  if (!intent.app && !s.inContextApp(obs)) {
    if (!st.openedSettings && !isApp(obs, 'Settings')) {
      const step = await openApp(s, 'Settings', obs);
      if (step !== READY && step !== MISSING) return step;
      st.openedSettings = true;
    }
    for (const row of ABOUT_WAY) {
      if (st.waysTaken.includes(row)) continue;
      const spot = locateOne(obs, row, { minCloseness: 6 });
      if (spot) {
        st.waysTaken.push(row);
        return s.tapAt(spot, { change: true }, `"${target}" may be under "${row}"`);
      }
    }
  }
  return searchBySwiping(s, target, obs, feedback);
}
