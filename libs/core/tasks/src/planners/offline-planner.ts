import { toApexError } from '@apex/errors';
import type { Observation, ScreenElement } from '../agent/observation';
import { findElement, isOn, matchScore } from '../agent/observation';
import type { Decision, Expectation, Planner, PlannerContext, PlannerSession, StepFeedback } from '../agent/planner';
import { describeIntent, type Intent } from '../goal/intents';
import { parseGoal } from '../goal/parse-goal';

export const OFFLINE_PLANNER = 'offline';

/** Swipes while looking for a target off screen, per direction. */
const MAX_SEARCH_SWIPES = 6;
const TEXT_INPUT_ROLES = ['textField', 'searchField', 'secureTextField'];
const COMPOSE_LABEL = /^(?:new(?:\s+\w+)?|compose|add|create|\+)$/i;

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
  openedSettings: boolean;
  wentHome: boolean;
  composed: boolean;
  /** find_text (which may read the pixels, slowly) runs once per intent. */
  textLookupDone: boolean;
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

function freshState(): IntentState {
  return { acted: false, launches: 0, tries: 0, swipes: 0, searchDirection: 'down', openedSettings: false, wentHome: false, composed: false, textLookupDone: false };
}

function act(operation: string, args: Record<string, unknown>, expect?: Expectation, why?: string): Decision {
  return { kind: 'act', action: { operation, arguments: args }, expect, why };
}

function tapAt(element: { center: { x: number; y: number } }, expect?: Expectation): Decision {
  return act('tap', { x: round(element.center.x), y: round(element.center.y) }, expect);
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

/**
 * The embedded planner: no model, a small grammar (see parseGoal). Each clause becomes an intent carried
 * out against what describe_screen shows, with find_text / find_icon / list_apps look-ups and swipes to
 * reach rows off screen. Goals outside the grammar fail at once as `infeasible`.
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
  /** App icons seen on any screen so far: names the device showed as apps. */
  private readonly seenIcons = new Set<string>();

  constructor(private readonly context: PlannerContext) {
    this.parsed = parseGoal(context.goal);
  }

  usage(): undefined {
    return undefined;
  }

  async decide(observation: Observation, feedback?: StepFeedback): Promise<Decision> {
    if (!this.parsed.ok) return { kind: 'fail', message: this.parsed.message, reason: 'infeasible' };
    const intents = this.parsed.intents;
    if (feedback?.loopWarning) {
      return { kind: 'fail', message: `Could not ${describeIntent(intents[this.index])}: the same action keeps leaving the screen unchanged.`, reason: 'loop' };
    }
    for (const e of observation.screen.elements) if (e.role === 'icon' && e.label) this.seenIcons.add(squash(e.label));
    let lastFeedback = feedback;
    while (this.index < intents.length) {
      const intent = intents[this.index];
      const step = await this.advance(intent, observation, lastFeedback);
      if (step !== NEXT) {
        if (step.kind === 'act') this.state.acted = true;
        return step;
      }
      this.notes.push(this.state.note ?? capitalize(describeIntent(intent)));
      this.index += 1;
      this.state = freshState();
      lastFeedback = undefined;
    }
    return { kind: 'done', result: `${this.notes.join('; ')}.` };
  }

  private advance(intent: Intent, obs: Observation, feedback: StepFeedback | undefined): Promise<Step> | Step {
    switch (intent.kind) {
      case 'open':
        return this.open(intent.app, obs, feedback);
      case 'home':
        return this.once(() => act('press_button', { button: 'home' }));
      case 'back':
        return this.back(obs);
      case 'scroll':
        return this.once(() => act('swipe', { direction: intent.finger }, { change: true }));
      case 'tap':
        return this.tap(intent.target, obs, feedback);
      case 'toggle':
        return this.toggle(intent.target, intent.on, obs, feedback);
      case 'type':
        return this.type(intent, obs);
    }
  }

  /** Intents that are one action and done. */
  private once(decision: () => Decision): Step {
    return this.state.acted ? NEXT : decision();
  }

  private async open(name: string, obs: Observation, feedback: StepFeedback | undefined): Promise<Step> {
    const st = this.state;
    if (st.resolved?.field !== undefined) return this.tap(name, obs, feedback);
    // "open General": a row or button of this screen, unless the name is a known app.
    const knownApp = isApp(obs, name) || this.seenIcons.has(squash(name)) || (await this.lookupApp(name)) !== undefined;
    if (!knownApp && !st.wentHome && findElement(obs, name, { minScore: 2 })) {
      st.resolved = { field: name };
      return this.tap(name, obs, feedback);
    }
    if (st.returnTo) {
      // No such app: back to the app we left, to look for a row of that name there.
      const back = await this.openApp(st.returnTo, obs);
      if (back === MISSING) return { kind: 'fail', message: `There is no app named "${name}" on this device.`, reason: 'infeasible' };
      if (back !== READY) return back;
      st.resolved = { field: name };
      return this.tap(name, obs, feedback);
    }
    const step = await this.openApp(name, obs);
    if (step === READY) {
      st.note ??= `Opened ${obs.screen.app?.name ?? name}`;
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
    const icon = findElement(obs, name, { roles: ['icon'], minScore: 2 });
    if (icon) {
      st.launches += 1;
      return tapAt(icon, { change: true });
    }
    if (!st.wentHome) {
      st.wentHome = true;
      if (obs.screen.app?.name && !obs.screen.elements.some((e) => e.role === 'icon')) st.leftApp = obs.screen.app.name;
      return act('press_button', { button: 'home' });
    }
    const found = await this.findIcon(name);
    if (found) {
      st.launches += 1;
      return tapAt(found, { change: true });
    }
    return MISSING;
  }

  private back(obs: Observation): Step {
    if (this.state.acted) return NEXT;
    const width = obs.screen.screen.width;
    const buttons = obs.screen.elements.filter((e) => e.role === 'button' && !e.disabled);
    const back =
      buttons.find((e) => /^(?:back|‹|<)$/i.test(e.label ?? '')) ??
      buttons.find((e) => e.center.y < 120 && e.center.x < width * 0.35);
    if (!back) return { kind: 'fail', message: 'There is no back button on this screen.', reason: 'target_not_found' };
    this.state.note = `Went back${back.label ? ` (${back.label})` : ''}`;
    return tapAt(back, { change: true });
  }

  private async tap(target: string, obs: Observation, feedback: StepFeedback | undefined): Promise<Step> {
    const st = this.state;
    if (st.note) return NEXT;
    const element = findElement(obs, target) ?? (await this.findTextOnce(target));
    if (element) {
      st.note = `Tapped ${element.label ?? target}`;
      return tapAt(element, { change: true });
    }
    return this.searchBySwiping(target, obs, feedback);
  }

  private async toggle(target: string, on: boolean, obs: Observation, feedback: StepFeedback | undefined): Promise<Step> {
    const st = this.state;
    const word = on ? 'on' : 'off';
    const sw = findSwitch(obs, target);
    if (sw) {
      const label = sw.label ?? target;
      if (isOn(sw.value) === on) {
        st.note ??= `${label} was already ${word}`;
        if (st.tries > 0) st.note = `Turned ${word} ${label}`;
        return NEXT;
      }
      if (st.tries >= 2) return { kind: 'fail', message: `${label} did not turn ${word} when tapped.`, reason: 'device_error' };
      st.tries += 1;
      return tapAt(sw, { change: true });
    }
    // Switches live in Settings: go there first when the goal did not.
    if (!st.openedSettings && !isApp(obs, 'Settings')) {
      const step = await this.openApp('Settings', obs);
      if (step !== READY && step !== MISSING) return step;
      st.openedSettings = true;
    }
    return this.searchBySwiping(target, obs, feedback);
  }

  private async type(intent: Extract<Intent, { kind: 'type' }>, obs: Observation): Promise<Step> {
    const st = this.state;
    if (st.note) return NEXT;
    if (!st.resolved) {
      // "in Notes" names an app unless this screen has a text field of that name ("in the search field").
      st.resolved = {};
      if (intent.into) {
        if (findElement(obs, intent.into, { roles: TEXT_INPUT_ROLES })) st.resolved.field = intent.into;
        else st.resolved.app = intent.into;
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
        return tapAt(input, { keyboard: true });
      }
      const compose = obs.screen.elements.find((e) => e.role === 'button' && COMPOSE_LABEL.test(e.label ?? ''));
      if (!input && compose && !st.composed) {
        st.composed = true;
        return tapAt(compose, { change: true });
      }
      if (!obs.screen.keyboardVisible) {
        return { kind: 'fail', message: `There is no text field${field ? ` named "${field}"` : ''} to type into on this screen.`, reason: 'target_not_found' };
      }
    }
    st.note = `Typed "${intent.text}"${intent.into ? ` in ${intent.into}` : ''}`;
    return act('input_text', intent.submit ? { text: intent.text, submit: true } : { text: intent.text }, { textPresent: intent.submit ? undefined : intent.text });
  }

  /** Swipes down the list (then back up) looking for `target`; gives up when both ends were reached. */
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
    const lastSwipeDidNothing =
      feedback?.action.operation === 'swipe' && feedback.outcome.status !== 'ok';
    if (lastSwipeDidNothing || st.swipes >= MAX_SEARCH_SWIPES) {
      if (st.searchDirection === 'up') {
        return { kind: 'fail', message: `Could not find "${target}" on this screen, even after scrolling it.`, reason: 'target_not_found' };
      }
      st.searchDirection = 'up';
      st.swipes = 0;
    }
    st.swipes += 1;
    // Finger up reveals what is below.
    return act('swipe', { direction: st.searchDirection === 'down' ? 'up' : 'down' }, { change: true }, `looking for "${target}"`);
  }

  /** find_text also reads the pixels: once per intent, for targets the tree does not name. */
  private async findTextOnce(target: string): Promise<{ center: { x: number; y: number }; label?: string } | undefined> {
    if (this.state.textLookupDone) return undefined;
    this.state.textLookupDone = true;
    try {
      const result = await this.context.query('find_text', { text: target });
      const matches = (result.output['matches'] as Array<{ text: string; center: { x: number; y: number }; confidence: number }>) ?? [];
      const best = matches.filter((m) => matchScore(target, m.text) > 0).sort((a, b) => b.confidence - a.confidence)[0];
      return best ? { center: best.center, label: best.text } : undefined;
    } catch {
      return undefined;
    }
  }

  private async findIcon(name: string): Promise<{ center: { x: number; y: number } } | undefined> {
    try {
      const result = await this.context.query('find_icon', { name });
      const matches = (result.output['matches'] as Array<{ center: { x: number; y: number }; confidence: number }>) ?? [];
      return matches.sort((a, b) => b.confidence - a.confidence)[0];
    } catch {
      return undefined;
    }
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

  /** Names → app ids from what the device lists: id, name, name without spaces, then a name prefix. */
  private async lookupApp(name: string): Promise<InstalledApp | undefined> {
    const apps = await this.installedApps();
    if (apps === 'unsupported') return undefined;
    const wanted = squash(name);
    return (
      apps.find((a) => a.appId.toLowerCase() === name.toLowerCase()) ??
      apps.find((a) => a.name !== undefined && squash(a.name) === wanted) ??
      apps.find((a) => a.name !== undefined && wanted.length >= 4 && squash(a.name).startsWith(wanted))
    );
  }
}

/** Whether the foreground app is the one named (by its name or id). */
function isApp(obs: Observation, name: string): boolean {
  const app = obs.screen.app;
  if (!app) return false;
  return squash(app.name ?? '') === squash(name) || app.appId.toLowerCase() === name.toLowerCase();
}

/** The switch named `target`: by its own label, else the switch on the same row as a matching label. */
function findSwitch(obs: Observation, target: string): ScreenElement | undefined {
  const direct = findElement(obs, target, { roles: ['switch'] });
  if (direct) return direct;
  const label = findElement(obs, target, { minScore: 2 });
  if (!label) return undefined;
  return obs.screen.elements.find((e) => e.role === 'switch' && Math.abs(e.center.y - label.center.y) < 22);
}

function pickTextInput(obs: Observation, field: string | undefined): ScreenElement | undefined {
  if (field) {
    const named = findElement(obs, field, { roles: TEXT_INPUT_ROLES });
    if (named) return named;
  }
  return obs.screen.elements.find((e) => TEXT_INPUT_ROLES.includes(e.role) && !e.disabled);
}

function focusedInputMatches(obs: Observation, field: string): boolean {
  const focused = obs.screen.elements.find((e) => e.focused && TEXT_INPUT_ROLES.includes(e.role));
  return focused === undefined || matchScore(field, focused.label) > 0 || matchScore(field, focused.role) > 0;
}

function squash(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
