import { toApexError } from '@apex/errors';
import type { Observation } from '../agent/observation';
import type { Decision, Expectation, Planner, PlannerContext, PlannerSession, StepFeedback } from '../agent/planner';
import { describeIntent, type Intent } from '../goal/intents';
import { parseGoal } from '../goal/parse-goal';
import { answerAlert } from './offline/alerts';
import { closestLabel, squash } from './offline/labels';
import {
  findSwitch,
  focusedInputMatches,
  glyphNamed,
  isApp,
  locate,
  locateOne,
  pickTextInput,
  quoteList,
  screenTitle,
  shows,
  switchIsOn,
  type Spot,
} from './offline/screen';

export const OFFLINE_PLANNER = 'offline';

/** Swipes while looking for a target off screen, per direction. */
const MAX_SEARCH_SWIPES = 6;
/** Alerts answered in one goal before giving up (each answer is one step). */
const MAX_ALERT_ANSWERS = 3;
/** Back presses for "go back to X". */
const MAX_BACKS = 5;
const COMPOSE_LABEL = /^(?:new(?:\s+\w+)?|compose|add|create|\+)$/i;
/** Buttons apps show while the keyboard is up to put it away. */
const KEYBOARD_DONE = /^(?:done|cancel|hide keyboard|dismiss keyboard)$/i;

interface InstalledApp {
  appId: string;
  name?: string;
}

/** Per-intent progress; reset when the planner moves on to the next clause. */
interface IntentState {
  acted: boolean;
  launches: number;
  tries: number;
  swipes: number;
  searchDirection: 'up' | 'down';
  turnedSearch: boolean;
  openedSettings: boolean;
  wentHome: boolean;
  composed: boolean;
  keyboardDismissals: number;
  backs: number;
  /** find_text (which may read the pixels, slowly) and find_icon run once per intent. */
  textLookupDone: boolean;
  iconLookupDone: boolean;
  resolved?: { app?: string; field?: string };
  /** The app left for the home screen while looking for an app icon. */
  leftApp?: string;
  /** Going back to `leftApp`: the name was no app after all. */
  returnTo?: string;
  note?: string;
}

const NEXT = Symbol('next');
const READY = Symbol('ready');
const MISSING = Symbol('missing');
type Step = Decision | typeof NEXT;

function freshState(direction: 'up' | 'down' = 'down'): IntentState {
  return {
    acted: false,
    launches: 0,
    tries: 0,
    swipes: 0,
    searchDirection: direction,
    turnedSearch: false,
    openedSettings: false,
    wentHome: false,
    composed: false,
    keyboardDismissals: 0,
    backs: 0,
    textLookupDone: false,
    iconLookupDone: false,
  };
}

function act(operation: string, args: Record<string, unknown>, expect?: Expectation, why?: string): Decision {
  return { kind: 'act', action: { operation, arguments: args }, expect, why };
}


function round(n: number): number {
  return Math.round(n * 10) / 10;
}

function ambiguous(target: string, labels: readonly string[]): Decision {
  return { kind: 'fail', message: `"${target}" could be ${quoteList(labels)}: say which.`, reason: 'target_not_found' };
}

/**
 * The embedded planner: no model, a small grammar (see parseGoal). Each clause becomes an intent carried
 * out against what describe_screen shows: names matched loosely but never guessed (offline/labels),
 * find_text / find_icon / list_apps look-ups, swipes to reach what is off screen, alerts in the way
 * answered (offline/alerts), and the last clause's end state checked before it says done. Goals outside
 * the grammar fail at once as `infeasible`.
 */
export class OfflinePlanner implements Planner {
  readonly name = OFFLINE_PLANNER;

  begin(context: PlannerContext): PlannerSession {
    return new OfflineSession(context);
  }
}

class OfflineSession implements PlannerSession {
  private readonly parsed;
  private index = 0;
  private state = freshState();
  private readonly notes: string[] = [];
  private apps?: InstalledApp[] | 'unsupported';
  /** App icons seen on any screen so far (squashed name → name): names the device showed as apps. */
  private readonly seenIcons = new Map<string, string>();
  /** The app the goal works in, once a clause opened it: later names are its rows first. */
  private contextApp?: string;
  private alertAnswers = 0;
  /** Alert buttons already tapped (squashed): a later "tap Allow Once" is then done. */
  private readonly answered = new Set<string>();
  /** The screen the current decision is made on. */
  private screen?: Observation;

  constructor(private readonly context: PlannerContext) {
    this.parsed = parseGoal(context.goal);
  }

  usage(): undefined {
    return undefined;
  }

  /**
   * A tap on what `spot` names: by its ref when it is an element of the screen being decided on (the action
   * lands on its current centre), else at its centre (text read from the pixels, a look-up's match, or refs off).
   */
  private tapAt(spot: Spot | { center: { x: number; y: number }; ref?: string }, expect?: Expectation, why?: string): Decision {
    const ref = spot.ref;
    if (this.context.actByRef !== false && ref && this.screen?.screen.elements.some((e) => e.ref === ref)) return act('tap', { ref }, expect, why);
    return act('tap', { x: round(spot.center.x), y: round(spot.center.y) }, expect, why);
  }

  async decide(observation: Observation, feedback?: StepFeedback): Promise<Decision> {
    if (!this.parsed.ok) return { kind: 'fail', message: this.parsed.message, reason: 'infeasible' };
    this.screen = observation;
    const intents = this.parsed.intents;
    if (feedback?.loopWarning) {
      const intent = intents[Math.min(this.index, intents.length - 1)];
      return { kind: 'fail', message: `Could not ${describeIntent(intent)}: the same action keeps leaving the screen unchanged.`, reason: 'loop' };
    }
    for (const e of observation.screen.elements) if (e.role === 'icon' && e.label) this.seenIcons.set(squash(e.label), e.label);
    const alertStep = this.answerAlertInTheWay(observation, intents[this.index]);
    if (alertStep) return alertStep;
    let lastFeedback = feedback;
    while (this.index < intents.length) {
      const intent = intents[this.index];
      const step = await this.advance(intent, observation, lastFeedback);
      if (step !== NEXT) {
        if (step.kind === 'act') this.state.acted = true;
        return step;
      }
      if (this.index === intents.length - 1) {
        const problem = this.endStateProblem(intent, observation, lastFeedback);
        if (problem) return { kind: 'fail', message: problem, reason: 'target_not_found' };
      }
      this.notes.push(this.state.note ?? capitalize(describeIntent(intent)));
      this.index += 1;
      this.state = freshState(intents[this.index]?.kind === 'find' ? (intents[this.index] as { direction: 'up' | 'down' }).direction : 'down');
      lastFeedback = undefined;
    }
    return { kind: 'done', result: `${this.notes.join('; ')}.` };
  }

  /**
   * A system alert covering the screen: answered as the goal's words say, else with the least permissive
   * choice that lets the goal go on. Left to the clause when it is the one answering it ("tap Allow Once").
   */
  private answerAlertInTheWay(obs: Observation, intent: Intent | undefined): Decision | undefined {
    const alert = obs.screen.alert;
    if (!alert || alert.buttons.length === 0) return undefined;
    if (intent?.kind === 'answer') return undefined;
    if (intent?.kind === 'tap' && closestLabel(intent.target, alert.buttons, (b) => b, 3).kind === 'match') return undefined;
    const title = alert.title ?? alert.message ?? 'alert';
    const answer = answerAlert(this.context.goal, alert.buttons);
    if (!answer || this.alertAnswers >= MAX_ALERT_ANSWERS) {
      return {
        kind: 'fail',
        message: `An alert ("${title}") covers the screen; say which button to tap (${alert.buttons.join(', ')}).`,
        reason: 'target_not_found',
      };
    }
    const button = locateOne(obs, answer.button, { roles: ['button'], minCloseness: 6 });
    if (!button) return { kind: 'fail', message: `The alert "${title}" shows "${answer.button}" but it cannot be tapped.`, reason: 'device_error' };
    this.alertAnswers += 1;
    this.answered.add(squash(answer.button));
    const why = `Answered the alert "${title}" with "${answer.button}" (${answer.why})`;
    this.notes.push(why);
    return this.tapAt(button, { change: true }, why);
  }

  private advance(intent: Intent, obs: Observation, feedback: StepFeedback | undefined): Promise<Step> | Step {
    switch (intent.kind) {
      case 'open':
        return this.open(intent.app, obs, feedback);
      case 'home':
        return this.once(() => act('press_button', { button: 'home' }));
      case 'back':
        return intent.to ? this.backTo(intent.to, obs) : this.back(obs);
      case 'scroll':
        return this.once(() => act('swipe', { direction: intent.finger }, { change: true }));
      case 'find':
        return this.find(intent.target, obs, feedback);
      case 'tap':
        return this.tap(intent.target, obs, feedback);
      case 'toggle':
        return this.toggle(intent.target, intent.on, obs, feedback);
      case 'type':
        return this.type(intent, obs);
      case 'answer':
        return this.answer(intent.words, obs);
    }
  }

  /** Intents that are one action and done. */
  private once(decision: () => Decision): Step {
    return this.state.acted ? NEXT : decision();
  }

  /** What the last clause should have left on screen, checked before saying done; undefined when it holds. */
  private endStateProblem(intent: Intent, obs: Observation, feedback: StepFeedback | undefined): string | undefined {
    if (obs.screen.alert) return `An alert ("${obs.screen.alert.title ?? obs.screen.alert.message ?? ''}") still covers the screen.`;
    const lastActionFailed = feedback !== undefined && feedback.outcome.status !== 'ok';
    switch (intent.kind) {
      case 'open':
        if (this.state.resolved?.field === undefined && !this.state.note?.startsWith('Tapped') && !isApp(obs, intent.app) && !this.seenAsApp(obs)) {
          return `${intent.app} is not in the foreground.`;
        }
        return this.state.note?.startsWith('Tapped') && lastActionFailed ? `Tapped ${intent.app}, but the screen did not change.` : undefined;
      case 'tap':
        return lastActionFailed && !this.answered.has(squash(intent.target)) ? `Tapped ${intent.target}, but the screen did not change.` : undefined;
      case 'find':
        return shows(obs, intent.target) ? undefined : `"${intent.target}" is not on the screen.`;
      case 'back':
        return intent.to && !this.atScreen(obs, intent.to) ? `The screen is not ${intent.to}.` : undefined;
      case 'type':
        return lastActionFailed ? `Typed "${intent.text}", but it does not show on the screen.` : undefined;
      default:
        return undefined;
    }
  }

  /** The foreground app is the one this open resolved to (by list_apps or an icon). */
  private seenAsApp(obs: Observation): boolean {
    const note = this.state.note;
    return note !== undefined && note.startsWith('Opened') && obs.screen.app !== undefined;
  }

  private async open(name: string, obs: Observation, feedback: StepFeedback | undefined): Promise<Step> {
    const st = this.state;
    if (st.resolved?.field !== undefined) return this.tap(name, obs, feedback);
    const app = this.appName(name);
    // "open General": a row or button of this screen (or of the app the goal works in), unless an app.
    const knownApp = isApp(obs, name) || app !== undefined || (await this.lookupApp(name)) !== undefined;
    if (!knownApp && !st.wentHome) {
      const row = locate(obs, name, { minCloseness: 3 });
      if (row.kind === 'ambiguous') return ambiguous(name, row.labels);
      if (row.kind === 'match' || (this.contextApp && isApp(obs, this.contextApp))) {
        st.resolved = { field: name };
        return this.tap(name, obs, feedback);
      }
    }
    if (st.returnTo) {
      // No such app: back to the app we left, to look for a row of that name there.
      const back = await this.openApp(st.returnTo, obs);
      if (back === MISSING) return { kind: 'fail', message: `There is no app named "${name}" on this device.`, reason: 'infeasible' };
      if (back !== READY) return back;
      st.resolved = { field: name };
      return this.tap(name, obs, feedback);
    }
    const step = await this.openApp(app ?? name, obs);
    if (step === READY) {
      st.note ??= `Opened ${obs.screen.app?.name ?? name}`;
      this.contextApp = obs.screen.app?.name ?? name;
      return NEXT;
    }
    if (step === MISSING) {
      if (st.leftApp && !knownApp) {
        st.returnTo = st.leftApp;
        st.launches = 0;
        return this.open(name, obs, feedback);
      }
      return { kind: 'fail', message: `There is no app named "${name}" on this device.`, reason: 'infeasible' };
    }
    return step;
  }

  /** The app icon name (as the device showed it) closest to what the user wrote, if one clearly is. */
  private appName(name: string): string | undefined {
    const match = closestLabel(name, [...this.seenIcons.values()], (l) => l, 3);
    return match.kind === 'match' ? match.label : undefined;
  }

  /**
   * Brings the named app to the foreground: by its id from list_apps when the device lists it, else by its
   * icon (on this screen, or on the home screen: the tree's icons, then find_icon).
   */
  private async openApp(name: string, obs: Observation): Promise<Decision | typeof READY | typeof MISSING> {
    const st = this.state;
    const app = await this.lookupApp(name);
    if (app) {
      if (obs.screen.app?.appId === app.appId) return READY;
      if (st.launches >= 2) return { kind: 'fail', message: `${app.name ?? app.appId} did not come to the foreground.`, reason: 'device_error' };
      st.launches += 1;
      return act('launch_app', { appId: app.appId }, { appId: app.appId });
    }
    if (isApp(obs, name)) return READY;
    if (st.launches >= 2) return { kind: 'fail', message: `${name} did not come to the foreground.`, reason: 'device_error' };
    const icon = locateOne(obs, name, { roles: ['icon'], minCloseness: 3 });
    if (icon) {
      st.launches += 1;
      return this.tapAt(icon, { change: true });
    }
    if (!st.wentHome) {
      st.wentHome = true;
      if (obs.screen.app?.name && !obs.screen.elements.some((e) => e.role === 'icon')) st.leftApp = obs.screen.app.name;
      return act('press_button', { button: 'home' });
    }
    const found = await this.findIcon(name);
    if (found) {
      st.launches += 1;
      return this.tapAt(found, { change: true });
    }
    return MISSING;
  }

  private back(obs: Observation): Step {
    if (this.state.acted) return NEXT;
    const button = this.backButton(obs);
    if (!button) return { kind: 'fail', message: 'There is no back button on this screen.', reason: 'target_not_found' };
    this.state.note = `Went back${button.label ? ` (${button.label})` : ''}`;
    return this.tapAt(button, { change: true });
  }

  private backButton(obs: Observation): Spot | undefined {
    const width = obs.screen.screen.width;
    const buttons = obs.screen.elements.filter((e) => e.role === 'button' && !e.disabled);
    return buttons.find((e) => /^(?:back|‹|<)$/i.test(e.label ?? '')) ?? buttons.find((e) => e.center.y < 120 && e.center.x < width * 0.35);
  }

  /** "go back to General": back until that screen shows (bounded), or the app of that name. */
  private async backTo(to: string, obs: Observation): Promise<Step> {
    const st = this.state;
    if (this.atScreen(obs, to)) {
      st.note = `Went back to ${screenTitle(obs) ?? to}`;
      return NEXT;
    }
    const button = this.backButton(obs);
    if (button && st.backs < MAX_BACKS) {
      st.backs += 1;
      return this.tapAt(button, { change: true }, `going back to ${to}`);
    }
    if (this.appName(to) || (await this.lookupApp(to))) {
      const step = await this.openApp(this.appName(to) ?? to, obs);
      if (step === READY) {
        st.note = `Went back to ${to}`;
        return NEXT;
      }
      if (step !== MISSING) return step;
    }
    return { kind: 'fail', message: `Could not go back to "${to}": no earlier screen of that name.`, reason: 'target_not_found' };
  }

  /** The screen is `name`: its title, or the app of that name at its first screen. */
  private atScreen(obs: Observation, name: string): boolean {
    const title = screenTitle(obs);
    if (title && closestLabel(name, [title], (t) => t, 3).kind === 'match') return true;
    return isApp(obs, name) && !this.backButton(obs);
  }

  private async tap(target: string, obs: Observation, feedback: StepFeedback | undefined): Promise<Step> {
    const st = this.state;
    if (st.note) return NEXT;
    if (this.answered.has(squash(target)) && !obs.screen.alert) {
      st.note = `Tapped ${target} (on the alert)`;
      return NEXT;
    }
    const match = locate(obs, target, { includeText: true });
    if (match.kind === 'ambiguous') return ambiguous(target, match.labels);
    if (match.kind === 'match') {
      st.note = `Tapped ${match.label}`;
      return this.tapAt(match.item, { change: true });
    }
    const keyboard = this.dismissKeyboard(obs, target);
    if (keyboard) return keyboard;
    const icon = await this.tapIcon(target);
    if (icon) return icon;
    const text = await this.findTextOnce(target);
    if (text) {
      st.note = `Tapped ${text.label ?? target}`;
      return this.tapAt(text, { change: true });
    }
    return this.searchBySwiping(target, obs, feedback);
  }

  /** "the trash icon", "the gear": an unlabeled button found by its glyph; the first in reading order. */
  private async tapIcon(target: string): Promise<Decision | undefined> {
    const glyph = glyphNamed(target);
    if (!glyph || this.state.iconLookupDone) return undefined;
    this.state.iconLookupDone = true;
    const matches = await this.iconMatches(glyph);
    if (matches.length === 0) return undefined;
    const [first] = matches.sort((a, b) => (Math.abs(a.center.y - b.center.y) > 12 ? a.center.y - b.center.y : a.center.x - b.center.x));
    const which = matches.length > 1 ? ` (the first of ${matches.length}, in reading order)` : '';
    this.state.note = `Tapped the ${glyph} icon${which}`;
    return this.tapAt(first, { change: true }, `the ${glyph} icon by its glyph${which}`);
  }

  /** The keyboard may cover what the goal names: put it away (the app's Done, or return in a search field). */
  private dismissKeyboard(obs: Observation, target: string): Decision | undefined {
    const st = this.state;
    if (!obs.screen.keyboardVisible || st.keyboardDismissals >= 2) return undefined;
    st.keyboardDismissals += 1;
    const done = obs.screen.elements.find((e) => e.role === 'button' && !e.disabled && KEYBOARD_DONE.test(e.label ?? ''));
    const why = `the keyboard may cover "${target}": dismissing it`;
    if (done) return this.tapAt(done, { keyboard: false }, why);
    const focused = obs.screen.elements.find((e) => e.focused && e.role === 'searchField');
    if (focused) return act('input_text', { text: '\n' }, { keyboard: false }, why);
    return undefined;
  }

  private async find(target: string, obs: Observation, feedback: StepFeedback | undefined): Promise<Step> {
    const match = locate(obs, target, { includeText: true });
    if (match.kind === 'ambiguous') return ambiguous(target, match.labels);
    if (match.kind === 'match') {
      this.state.note = `Scrolled until "${match.label}" showed`;
      return NEXT;
    }
    return this.dismissKeyboard(obs, target) ?? this.searchBySwiping(target, obs, feedback);
  }

  private async toggle(target: string, on: boolean, obs: Observation, feedback: StepFeedback | undefined): Promise<Step> {
    const st = this.state;
    const word = on ? 'on' : 'off';
    const match = findSwitch(obs, target);
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
      return this.tapAt(sw, { change: true });
    }
    // Switches live in Settings: go there first when the goal did not.
    if (!st.openedSettings && !isApp(obs, 'Settings') && !(this.contextApp && isApp(obs, this.contextApp))) {
      const step = await this.openApp('Settings', obs);
      if (step !== READY && step !== MISSING) return step;
      st.openedSettings = true;
    }
    return this.searchBySwiping(target, obs, feedback);
  }

  private answer(words: string, obs: Observation): Step {
    const st = this.state;
    if (st.acted) return NEXT;
    const alert = obs.screen.alert;
    if (!alert) {
      st.note = this.answered.size > 0 ? 'The alert was already answered' : `No alert was up to ${words.toLowerCase()}`;
      return NEXT;
    }
    const answer = answerAlert(words, alert.buttons);
    const button = answer && locateOne(obs, answer.button, { roles: ['button'], minCloseness: 6 });
    if (!answer || !button) {
      return { kind: 'fail', message: `The alert offers ${quoteList(alert.buttons)}; none of them says "${words}".`, reason: 'target_not_found' };
    }
    this.answered.add(squash(answer.button));
    st.note = `Answered the alert "${alert.title ?? alert.message ?? ''}" with "${answer.button}"`;
    return this.tapAt(button, { change: true }, st.note);
  }

  private async type(intent: Extract<Intent, { kind: 'type' }>, obs: Observation): Promise<Step> {
    const st = this.state;
    if (st.note) return NEXT;
    if (!st.resolved) {
      // "in Notes" names an app unless this screen has a text field of that name ("in the search field").
      st.resolved = {};
      if (intent.into) {
        if (locate(obs, intent.into, { roles: ['textField', 'searchField', 'secureTextField'] }).kind === 'match') st.resolved.field = intent.into;
        else st.resolved.app = this.appName(intent.into) ?? intent.into;
      }
    }
    const { app, field } = st.resolved;
    if (app) {
      const step = await this.openApp(app, obs);
      if (step === MISSING) return { kind: 'fail', message: `There is no app or text field named "${app}".`, reason: 'infeasible' };
      if (step !== READY) return step;
    }
    if (!obs.screen.keyboardVisible || (field && !focusedInputMatches(obs, field))) {
      const input = pickTextInput(obs, field);
      if (input && st.tries < 2) {
        st.tries += 1;
        return this.tapAt(input, { keyboard: true });
      }
      const compose = obs.screen.elements.find((e) => e.role === 'button' && COMPOSE_LABEL.test(e.label ?? ''));
      if (!input && compose && !st.composed) {
        st.composed = true;
        return this.tapAt(compose, { change: true });
      }
      if (!obs.screen.keyboardVisible) {
        return { kind: 'fail', message: `There is no text field${field ? ` named "${field}"` : ''} to type into on this screen.`, reason: 'target_not_found' };
      }
    }
    st.note = `Typed "${intent.text}"${intent.into ? ` in ${intent.into}` : ''}`;
    return act('input_text', intent.submit ? { text: intent.text, submit: true } : { text: intent.text }, { textPresent: intent.submit ? undefined : intent.text });
  }

  /**
   * Swipes the list one way (down first unless the goal said up), then the other, looking for `target`;
   * a direction ends when a swipe leaves the screen unchanged or after MAX_SEARCH_SWIPES.
   */
  private searchBySwiping(target: string, obs: Observation, feedback: StepFeedback | undefined): Step {
    const st = this.state;
    if (obs.screen.alert) {
      const alert = obs.screen.alert;
      return {
        kind: 'fail',
        message: `An alert ("${alert.title ?? alert.message ?? ''}") covers the screen and "${target}" is not on it; say which button to tap (${alert.buttons.join(', ')}).`,
        reason: 'target_not_found',
      };
    }
    const lastSwipeDidNothing = feedback?.action.operation === 'swipe' && feedback.outcome.status !== 'ok';
    if (lastSwipeDidNothing || st.swipes >= MAX_SEARCH_SWIPES) {
      if (st.turnedSearch) {
        return { kind: 'fail', message: `Could not find "${target}" on this screen, even after scrolling it both ways.`, reason: 'target_not_found' };
      }
      st.turnedSearch = true;
      st.searchDirection = st.searchDirection === 'down' ? 'up' : 'down';
      st.swipes = 0;
    }
    st.swipes += 1;
    // Finger up reveals what is below.
    return act('swipe', { direction: st.searchDirection === 'down' ? 'up' : 'down' }, { change: true }, `looking for "${target}"`);
  }

  /** find_text also reads the pixels: once per intent, for targets the tree does not name. */
  private async findTextOnce(target: string): Promise<Spot | undefined> {
    if (this.state.textLookupDone) return undefined;
    this.state.textLookupDone = true;
    try {
      const result = await this.context.query('find_text', { text: target });
      const matches = (result.output['matches'] as Array<{ text: string; center: { x: number; y: number }; confidence: number }>) ?? [];
      const match = closestLabel(target, matches, (m) => m.text, 3);
      return match.kind === 'match' ? { center: match.item.center, label: match.item.text, role: 'text' } : undefined;
    } catch {
      return undefined;
    }
  }

  private async iconMatches(name: string): Promise<Array<{ center: { x: number; y: number }; confidence: number }>> {
    try {
      const result = await this.context.query('find_icon', { name });
      return (result.output['matches'] as Array<{ center: { x: number; y: number }; confidence: number }>) ?? [];
    } catch {
      return [];
    }
  }

  private async findIcon(name: string): Promise<{ center: { x: number; y: number } } | undefined> {
    return (await this.iconMatches(name)).sort((a, b) => b.confidence - a.confidence)[0];
  }

  private async installedApps(): Promise<InstalledApp[] | 'unsupported'> {
    if (this.apps === undefined) {
      try {
        const result = await this.context.query('list_apps', {});
        this.apps = result.output['apps'] as InstalledApp[];
      } catch (error) {
        if (toApexError(error).code !== 'unsupported_operation') throw error;
        this.apps = 'unsupported';
      }
    }
    return this.apps;
  }

  /** Names → app ids from what the device lists: id, then the closest name (exact, synonym, prefix, typo). */
  private async lookupApp(name: string): Promise<InstalledApp | undefined> {
    const apps = await this.installedApps();
    if (apps === 'unsupported') return undefined;
    const byId = apps.find((a) => a.appId.toLowerCase() === name.toLowerCase());
    if (byId) return byId;
    const match = closestLabel(name, apps, (a) => a.name, 3);
    return match.kind === 'match' ? match.item : undefined;
  }
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
