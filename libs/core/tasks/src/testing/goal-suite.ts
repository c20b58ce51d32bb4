/**
 * The offline planner's goal suite on the virtual iPhone, shared by the integration test and the benchmark.
 * Each goal starts on a fresh phone (home screen; Airplane Mode off, Wi-Fi and Bluetooth on) and states the
 * end state the device must really be in, checked on the phone's own accessibility snapshot.
 */

/** The part of a phone snapshot element the checks read (structurally the virtual phone's element). */
export interface SnapshotElement {
  type: string;
  label?: string;
  value?: string;
  visible: boolean;
  children: SnapshotElement[];
}

export interface PhoneEndState {
  /** Foreground app's bundle id. */
  appId: string;
  root: SnapshotElement;
}

export interface GoalExpectation {
  status: 'succeeded' | 'failed';
  /** For failures. */
  reason?: string;
  appId?: string;
  /** Switch label → on. */
  switches?: Record<string, boolean>;
  /** Visible texts (static text or labels) that must be on screen, e.g. a page title. */
  visibleText?: string[];
  /** Texts that must not be visible. */
  hiddenText?: string[];
  /** A text input's value must contain this. */
  typed?: string;
  /** No alert may be up. */
  noAlert?: boolean;
  /** No keyboard may be up. */
  noKeyboard?: boolean;
}

export interface SuiteGoal {
  goal: string;
  expect: GoalExpectation;
}

const SETTINGS = 'com.apple.Preferences';
const NOTES = 'com.apple.mobilenotes';

export const OFFLINE_GOAL_SUITE: SuiteGoal[] = [
  { goal: 'open Settings', expect: { status: 'succeeded', appId: SETTINGS, visibleText: ['Airplane Mode'] } },
  { goal: 'turn on Airplane Mode', expect: { status: 'succeeded', appId: SETTINGS, switches: { 'Airplane Mode': true, 'Wi-Fi': true } } },
  { goal: 'Open Settings and turn off Wi-Fi', expect: { status: 'succeeded', switches: { 'Wi-Fi': false, Bluetooth: true } } },
  {
    goal: 'turn off Bluetooth, then turn on Airplane Mode',
    expect: { status: 'succeeded', switches: { Bluetooth: false, 'Airplane Mode': true, 'Wi-Fi': true } },
  },
  { goal: 'turn on Wi-Fi and Bluetooth', expect: { status: 'succeeded', switches: { 'Wi-Fi': true, Bluetooth: true, 'Airplane Mode': false } } },
  {
    goal: 'open Settings, tap General then tap About',
    expect: { status: 'succeeded', appId: SETTINGS, visibleText: ['About', 'Model Name', 'Serial Number'] },
  },
  {
    goal: 'open Settings, tap General, tap About, then go back',
    expect: { status: 'succeeded', appId: SETTINGS, visibleText: ['Software Update'], hiddenText: ['Serial Number'] },
  },
  { goal: 'open Settings then tap Privacy & Security', expect: { status: 'succeeded', appId: SETTINGS, visibleText: ['No Privacy & Security settings'] } },
  { goal: 'open Settings then scroll down', expect: { status: 'succeeded', appId: SETTINGS, hiddenText: ['Airplane Mode'] } },
  { goal: 'type hello in Notes', expect: { status: 'succeeded', appId: NOTES, typed: 'hello' } },
  {
    goal: 'open Notes then type "Buy milk, eggs" then tap Done',
    expect: { status: 'succeeded', appId: NOTES, typed: 'Buy milk, eggs', noKeyboard: true },
  },
  { goal: 'open Maps then tap Allow While Using App', expect: { status: 'succeeded', appId: 'com.apple.Maps', noAlert: true } },
  { goal: 'open Photos', expect: { status: 'succeeded', appId: 'com.apple.mobileslideshow' } },
  { goal: 'open Safari then go home', expect: { status: 'succeeded', appId: 'com.apple.springboard' } },
  { goal: 'open the Clock app', expect: { status: 'succeeded', appId: 'com.apple.mobiletimer' } },
  { goal: 'open Fortnite', expect: { status: 'failed', reason: 'infeasible' } },
  { goal: 'book a table for two at an Italian restaurant', expect: { status: 'failed', reason: 'infeasible' } },
];

function* walk(element: SnapshotElement): Generator<SnapshotElement> {
  yield element;
  for (const child of element.children) yield* walk(child);
}

/** What is wrong with the phone's end state, or [] when it is as expected. */
export function endStateProblems(state: PhoneEndState, expect: GoalExpectation): string[] {
  const problems: string[] = [];
  const all = [...walk(state.root)];
  const visible = all.filter((e) => e.visible);
  const texts = (e: SnapshotElement) => [e.label, e.value].filter((t): t is string => Boolean(t));
  if (expect.appId && state.appId !== expect.appId) problems.push(`foreground app is ${state.appId}, expected ${expect.appId}`);
  for (const [label, on] of Object.entries(expect.switches ?? {})) {
    const sw = all.find((e) => e.type === 'Switch' && e.label === label);
    if (!sw) problems.push(`no "${label}" switch on the end screen`);
    else if ((sw.value === '1') !== on) problems.push(`"${label}" is ${sw.value === '1' ? 'on' : 'off'}, expected ${on ? 'on' : 'off'}`);
  }
  for (const text of expect.visibleText ?? []) {
    if (!visible.some((e) => texts(e).includes(text))) problems.push(`"${text}" is not visible`);
  }
  for (const text of expect.hiddenText ?? []) {
    if (visible.some((e) => texts(e).includes(text))) problems.push(`"${text}" is still visible`);
  }
  if (expect.typed !== undefined) {
    const inputs = all.filter((e) => ['TextView', 'TextField', 'SearchField'].includes(e.type));
    if (!inputs.some((e) => (e.value ?? '').includes(expect.typed as string))) problems.push(`no text input holds "${expect.typed}"`);
  }
  if (expect.noAlert && all.some((e) => e.type === 'Alert')) problems.push('an alert is still up');
  if (expect.noKeyboard && all.some((e) => e.type === 'Keyboard')) problems.push('the keyboard is still up');
  return problems;
}
