import type { Observation } from '../agent/observation';
import type { Decision, Planner, PlannerContext, PlannerSession, StepFeedback } from '../agent/planner';
import { describeIntent, type Intent } from '../goal/intents';
import { parseGoal } from '../goal/parse-goal';
import { answer, answerAlertInTheWay } from './offline/answer';
import { appOperation, askAppState, install } from './offline/app-loop';
import { ask } from './offline/ask';
import { closeApp, deviceOperation, gesture, waitFor } from './offline/device';
import { mark, tab } from './offline/item-control';
import { keep } from './offline/keep';
import { sendMessage } from './offline/message';
import { searchApp, searchEndState } from './offline/search-field';
import { show, showEndState } from './offline/show';
import { partOfApp, squash } from './offline/labels';
import { back, backEndState, backTo, home, scroll, visit } from './offline/navigate';
import { open, openEndState } from './offline/open';
import { find, findEndState } from './offline/search';
import { freshState, NEXT, SessionState, type Step } from './offline/session';
import { tap, tapEndState } from './offline/tap';
import { toggle } from './offline/toggle';
import { typeEndState, typeText } from './offline/type-text';

export const OFFLINE_PLANNER = 'offline';

/**
 * The embedded planner: no model, a small grammar (see parseGoal). Each clause becomes an intent carried
 * out against what describe_screen shows: names matched loosely but never guessed (offline/labels),
 * find_text / find_icon / list_apps look-ups, swipes to reach what is off screen, alerts in the way
 * answered (offline/alerts), and the last clause's end state checked before it says done. Goals outside
 * the grammar fail at once as `infeasible`. One module of offline/ per intent family; this one dispatches.
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
  private readonly s: SessionState;

  constructor(context: PlannerContext) {
    const parsed = parseGoal(context.goal);
    this.parsed = parsed.ok ? { ...parsed, intents: parsed.intents.map(openingAPart) } : parsed;
    this.s = new SessionState(context);
  }

  usage(): undefined {
    return undefined;
  }

  async decide(observation: Observation, feedback?: StepFeedback): Promise<Decision> {
    if (!this.parsed.ok) return { kind: 'fail', message: this.parsed.message, reason: 'infeasible' };
    const s = this.s;
    s.screen = observation;
    const intents = this.parsed.intents;
    if (feedback?.loopWarning) {
      const intent = intents[Math.min(this.index, intents.length - 1)];
      return { kind: 'fail', message: `Could not ${describeIntent(intent)}: the same action keeps leaving the screen unchanged.`, reason: 'loop' };
    }
    for (const e of observation.screen.elements) if (e.role === 'icon' && e.label) s.seenIcons.set(squash(e.label), e.label);
    const alertStep = offScreen(intents[this.index]) ? undefined : answerAlertInTheWay(s, observation, intents[this.index]);
    if (alertStep) return alertStep;
    let lastFeedback = feedback;
    while (this.index < intents.length) {
      const intent = intents[this.index];
      const step = await this.advance(intent, observation, lastFeedback);
      if (step !== NEXT) {
        if (step.kind === 'act') s.state.acted = true;
        return step;
      }
      if (this.index === intents.length - 1) {
        const problem = this.endStateProblem(intent, observation, lastFeedback);
        if (problem) return { kind: 'fail', message: problem, reason: 'target_not_found' };
      }
      s.notes.push(s.state.note ?? capitalize(describeIntent(intent)));
      this.index += 1;
      s.state = freshState(intents[this.index]?.kind === 'find' ? (intents[this.index] as { direction: 'up' | 'down' }).direction : 'down');
      lastFeedback = undefined;
    }
    return s.answer ? { kind: 'done', result: `${s.notes.join('; ')}.`, answer: s.answer } : { kind: 'done', result: `${s.notes.join('; ')}.` };
  }

  private advance(intent: Intent, obs: Observation, feedback: StepFeedback | undefined): Promise<Step> | Step {
    const s = this.s;
    switch (intent.kind) {
      case 'open':
        return open(s, intent.app, obs, feedback);
      case 'home':
        return home(s);
      case 'back':
        return intent.to ? backTo(s, intent.to, obs, feedback) : back(s, obs, feedback);
      case 'scroll':
        return scroll(s, intent.finger);
      case 'find':
        return find(s, intent.target, obs, feedback);
      case 'tap':
        return tap(s, intent.target, obs, feedback);
      case 'toggle':
        return toggle(s, intent.target, intent.on, obs, feedback);
      case 'type':
        return typeText(s, intent, obs);
      case 'visit':
        return visit(s, intent.url);
      case 'answer':
        return answer(s, intent.words, obs);
      case 'device':
        return deviceOperation(s, intent, feedback);
      case 'close':
        return closeApp(s, intent.app, obs, feedback);
      case 'gesture':
        return gesture(s, intent, obs, feedback);
      case 'wait':
        return waitFor(s, intent, feedback);
      case 'mark':
        return mark(s, intent, obs, feedback);
      case 'tab':
        return tab(s, intent.tab, obs, feedback);
      case 'show':
        return show(s, intent, obs, feedback);
      case 'send':
        return sendMessage(s, intent, obs, feedback);
      case 'search':
        return searchApp(s, intent, obs, feedback);
      case 'keep':
        return keep(s, intent, obs, feedback);
      case 'ask':
        return ask(s, intent, obs, feedback);
      case 'install':
        return install(s, intent, feedback);
      case 'app':
        return appOperation(s, intent, feedback);
      case 'app_state':
        return askAppState(s, intent);
    }
  }

  /** What the last clause should have left on screen, checked before saying done; undefined when it holds. */
  private endStateProblem(intent: Intent, obs: Observation, feedback: StepFeedback | undefined): string | undefined {
    if (obs.screen.alert && !offScreen(intent)) return `An alert ("${obs.screen.alert.title ?? obs.screen.alert.message ?? ''}") still covers the screen.`;
    const lastActionFailed = feedback !== undefined && feedback.outcome.status !== 'ok';
    switch (intent.kind) {
      case 'open':
        return openEndState(this.s, intent.app, obs, lastActionFailed);
      case 'tap':
        return tapEndState(this.s, intent.target, lastActionFailed);
      case 'find':
        return findEndState(intent.target, obs);
      case 'back':
        return backEndState(intent.to, obs);
      case 'type':
        return typeEndState(intent, lastActionFailed);
      case 'search':
        return searchEndState(intent, obs);
      case 'tab':
        return tapEndState(this.s, intent.tab, lastActionFailed);
      case 'show':
        return showEndState(this.s, intent, obs, lastActionFailed);
      default:
        return undefined;
    }
  }
}

/**
 * Clauses done through the catalog without the screen (the developer's loop): an alert on screen is not in
 * their way, and is not theirs to answer ("install X" leaves the new app's prompt for the next clause).
 */
function offScreen(intent: Intent | undefined): boolean {
  return intent?.kind === 'install' || intent?.kind === 'app' || intent?.kind === 'app_state' || (intent?.kind === 'device' && intent.operation === 'set_location');
}

/**
 * "open the stopwatch", "go to Alarms": a part of an app (its tab), not the app. It is shown — its app opened,
 * then the part — rather than read as its app's name, which only opened the app and said done.
 */
function openingAPart(intent: Intent): Intent {
  return intent.kind === 'open' && partOfApp(intent.app) ? { kind: 'show', target: intent.app } : intent;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
