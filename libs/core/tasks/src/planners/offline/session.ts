import { toApexError } from '@apex/errors';
import type { Observation } from '../../agent/observation';
import type { Decision, Expectation, PlannerContext } from '../../agent/planner';
import type { TaskAnswer } from '../../model/task';
import { closestLabel } from './labels';
import { isApp, quoteList, type Spot } from './screen';

/** An intent's handler is done with its clause: the planner moves on to the next one. */
export const NEXT = Symbol('next');
/** openApp: the app is in the foreground. */
export const READY = Symbol('ready');
/** openApp: no app of that name. */
export const MISSING = Symbol('missing');
/** What an intent's handler answers for the screen it sees. */
export type Step = Decision | typeof NEXT;

export interface InstalledApp {
  appId: string;
  name?: string;
}

/** Per-intent progress; reset when the planner moves on to the next clause. */
export interface IntentState {
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
  /** Where a clause of several actions (send a message, search an app) has got to. */
  phase: number;
  backs: number;
  /** The device refused its back button (it has none): only the screen's own back button is left. */
  noDeviceBack: boolean;
  /** Rows tapped on the way to a switch the screen did not show (offline/settings-ways). */
  waysTaken: string[];
  /** find_text (which may read the pixels, slowly) and find_icon run once per intent. */
  textLookupDone: boolean;
  iconLookupDone: boolean;
  resolved?: { app?: string; field?: string };
  /** "show me X": what X turned out to be on the phone (offline/show.ts). */
  showAs?: 'open' | 'tab' | 'ask' | 'shown';
  /** The app left for the home screen while looking for an app icon. */
  leftApp?: string;
  /** Going back to `leftApp`: the name was no app after all. */
  returnTo?: string;
  note?: string;
}

export function freshState(direction: 'up' | 'down' = 'down'): IntentState {
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
    phase: 0,
    backs: 0,
    noDeviceBack: false,
    waysTaken: [],
    textLookupDone: false,
    iconLookupDone: false,
  };
}

export function act(operation: string, args: Record<string, unknown>, expect?: Expectation, why?: string): Decision {
  return { kind: 'act', action: { operation, arguments: args }, expect, why };
}

export function ambiguous(target: string, labels: readonly string[]): Decision {
  return { kind: 'fail', message: `"${target}" could be ${quoteList(labels)}: say which.`, reason: 'target_not_found' };
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

/**
 * What the clauses of one goal share: the current clause's progress, the notes of the clauses done, what the
 * device showed so far, and the look-ups (list_apps, find_text, find_icon) made through the catalog.
 */
export class SessionState {
  state = freshState();
  readonly notes: string[] = [];
  /** App icons seen on any screen so far (squashed name → name): names the device showed as apps. */
  readonly seenIcons = new Map<string, string>();
  /** The app the goal works in, once a clause opened it: later names are its rows first. */
  contextApp?: string;
  /** Its id, where the device names the app in front by id only (Android). */
  contextAppId?: string;
  alertAnswers = 0;
  /** A question's answer, once a clause read it. */
  answer?: TaskAnswer;
  /** Alert buttons already tapped (squashed): a later "tap Allow Once" is then done. */
  readonly answered = new Set<string>();
  /** The screen the current decision is made on. */
  screen?: Observation;
  /** The app a clause installed or opened last: what "it" / "the app" names in the developer's loop. */
  lastApp?: InstalledApp;
  private apps?: InstalledApp[] | 'unsupported';
  private appsComplete = false;

  constructor(readonly context: PlannerContext) {}

  /**
   * A tap on what `spot` names: by its ref when it is an element of the screen being decided on (the action
   * lands on its current centre), else at its centre (text read from the pixels, a look-up's match, or refs off).
   */
  tapAt(spot: Spot | { center: { x: number; y: number }; ref?: string }, expect?: Expectation, why?: string): Decision {
    const ref = spot.ref;
    if (this.context.actByRef !== false && ref && this.screen?.screen.elements.some((e) => e.ref === ref)) return act('tap', { ref }, expect, why);
    return act('tap', { x: round(spot.center.x), y: round(spot.center.y) }, expect, why);
  }

  /** Whether the app in front is the one the goal works in (opened by a clause before). */
  inContextApp(obs: Observation): boolean {
    const app = obs.screen.app;
    if (!app || this.contextApp === undefined) return false;
    return app.appId === this.contextAppId || isApp(obs, this.contextApp);
  }

  /** The app icon name (as the device showed it) closest to what the user wrote, if one clearly is. */
  appName(name: string): string | undefined {
    const match = closestLabel(name, [...this.seenIcons.values()], (l) => l, 3);
    return match.kind === 'match' ? match.label : undefined;
  }

  /** Names → app ids from what the device lists: id, then the closest name (exact, synonym, prefix, typo). */
  async lookupApp(name: string): Promise<InstalledApp | undefined> {
    const apps = await this.installedApps();
    if (apps === 'unsupported') return undefined;
    const byId = apps.find((a) => a.appId.toLowerCase() === name.toLowerCase());
    if (byId) return byId;
    const match = closestLabel(name, apps, (a) => a.name, 3);
    return match.kind === 'match' ? match.item : undefined;
  }

  /** Whether list_apps named every installed app (so an app it does not name is not installed). */
  async listsEveryApp(): Promise<boolean> {
    return (await this.installedApps()) !== 'unsupported' && this.appsComplete;
  }

  /** After an install or an uninstall: the next look-up asks the device again. */
  forgetApps(): void {
    this.apps = undefined;
  }

  /** find_text also reads the pixels: once per intent, for targets the tree does not name. */
  async findTextOnce(target: string): Promise<Spot | undefined> {
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

  async iconMatches(name: string): Promise<Array<{ center: { x: number; y: number }; confidence: number }>> {
    try {
      const result = await this.context.query('find_icon', { name });
      return (result.output['matches'] as Array<{ center: { x: number; y: number }; confidence: number }>) ?? [];
    } catch {
      return [];
    }
  }

  async findIcon(name: string): Promise<{ center: { x: number; y: number } } | undefined> {
    return (await this.iconMatches(name)).sort((a, b) => b.confidence - a.confidence)[0];
  }

  private async installedApps(): Promise<InstalledApp[] | 'unsupported'> {
    if (this.apps === undefined) {
      try {
        const result = await this.context.query('list_apps', {});
        this.apps = result.output['apps'] as InstalledApp[];
        this.appsComplete = result.output['complete'] === true;
      } catch (error) {
        if (toApexError(error).code !== 'unsupported_operation') throw error;
        this.apps = 'unsupported';
      }
    }
    return this.apps;
  }
}
