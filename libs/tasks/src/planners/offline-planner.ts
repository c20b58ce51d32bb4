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

type AppLookup = { found: InstalledApp } | { missing: InstalledApp[] } | { unsupported: true };

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
  textLookupDone: Set<string>;
  resolved?: { appId?: string; field?: string };
  note?: string;
}

const NEXT = Symbol('next');
type Step = Decision | typeof NEXT;

function freshState(): IntentState {
  return { acted: false, launches: 0, tries: 0, swipes: 0, searchDirection: 'down', openedSettings: false, wentHome: false, composed: false, textLookupDone: new Set() };
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
    const lookup = await this.lookupApp(name);
    if ('found' in lookup) {
      const app = lookup.found;
      if (obs.screen.app?.appId === app.appId) {
        st.note ??= `Opened ${app.name ?? app.appId}`;
        return NEXT;
      }
      if (st.launches >= 2) return { kind: 'fail', message: `${app.name ?? app.appId} did not come to the foreground.`, reason: 'device_error' };
      st.launches += 1;
      return act('launch_app', { appId: app.appId }, { appId: app.appId });
    }
    if ('unsupported' in lookup) return this.openFromHomeScreen(name, obs);
    // Not an app: perhaps a row or button on this screen ("open General").
    if (findElement(obs, name, { minScore: 2 })) {
      st.resolved = { field: name };
      return this.tap(name, obs, feedback);
    }
    const names = lookup.missing.map((a) => a.name ?? a.appId).join(', ');
    return { kind: 'fail', message: `There is no app named "${name}" on this device (apps: ${names}).`, reason: 'infeasible' };
  }

  /** Devices that cannot list their apps: go home and tap the app's icon. */
  private async openFromHomeScreen(name: string, obs: Observation): Promise<Step> {
    const st = this.state;
    if (st.note) return NEXT;
    if (!st.wentHome) {
      st.wentHome = true;
      return act('press_button', { button: 'home' });
    }
    const icon = findElement(obs, name, { roles: ['icon', 'button'], minScore: 2 }) ?? (await this.findIcon(name));
    if (!icon) return { kind: 'fail', message: `No app icon named "${name}" on the home screen.`, reason: 'target_not_found' };
    st.note = `Opened ${name}`;
    return tapAt(icon, { change: true });
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
    const element = findElement(obs, target) ?? (await this.findTextOnce(target, obs));
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
    const settingsId = await this.settingsAppId();
    if (!st.openedSettings && settingsId && obs.screen.app?.appId !== settingsId) {
      st.openedSettings = true;
      return act('launch_app', { appId: settingsId }, { appId: settingsId });
    }
    return this.searchBySwiping(target, obs, feedback);
  }

  private async type(intent: Extract<Intent, { kind: 'type' }>, obs: Observation): Promise<Step> {
    const st = this.state;
    if (st.note) return NEXT;
    if (!st.resolved) {
      st.resolved = {};
      if (intent.into) {
        const lookup = await this.lookupApp(intent.into);
        if ('found' in lookup) st.resolved.appId = lookup.found.appId;
        else st.resolved.field = intent.into;
      }
    }
    const { appId, field } = st.resolved;
    if (appId && obs.screen.app?.appId !== appId) {
      if (st.launches >= 2) return { kind: 'fail', message: `${intent.into} did not come to the foreground.`, reason: 'device_error' };
      st.launches += 1;
      return act('launch_app', { appId }, { appId });
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

  /** find_text also reads the pixels: once per screen, for targets the tree does not name. */
  private async findTextOnce(target: string, obs: Observation): Promise<{ center: { x: number; y: number }; label?: string } | undefined> {
    if (this.state.textLookupDone.has(obs.fingerprint)) return undefined;
    this.state.textLookupDone.add(obs.fingerprint);
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

  /** Names → app ids from what the device reports: id, name, name without spaces, then a name prefix. */
  private async lookupApp(name: string): Promise<AppLookup> {
    const apps = await this.installedApps();
    if (apps === 'unsupported') return { unsupported: true };
    const wanted = squash(name);
    const found =
      apps.find((a) => a.appId.toLowerCase() === name.toLowerCase()) ??
      apps.find((a) => a.name !== undefined && squash(a.name) === wanted) ??
      apps.find((a) => a.name !== undefined && wanted.length >= 4 && squash(a.name).startsWith(wanted));
    return found ? { found } : { missing: apps };
  }

  private async settingsAppId(): Promise<string | undefined> {
    const lookup = await this.lookupApp('Settings');
    return 'found' in lookup ? lookup.found.appId : undefined;
  }
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
