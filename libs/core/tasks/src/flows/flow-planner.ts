import { toPublicError } from '@apex/errors';
import { stringify } from 'yaml';
import { delay } from '../agent/delay';
import { observationOfResult, summarizeObservation, type Observation } from '../agent/observation';
import type { Decision, Planner, PlannerContext, PlannerSession, StepFeedback } from '../agent/planner';
import type { FlowPatch, StepAction, TaskUsage } from '../model/task';
import { compact, flowStepOf } from './export-flow';
import { FLOW_LIMITS, type Flow, type FlowStep, type Selector } from './flow-schema';
import { choose, describeSelector, finderCandidates, treeCandidates, type FinderMatch, type Resolution } from './selector';
import { writtenActionOf } from './step-actions';
import { targetOf } from './step-target';

export const FLOW_PLANNER_NAME = 'flow';

/** A flow step as the planner runs it: `type {into}` becomes a tap then the typing. */
type RunStep = FlowStep & { number: number };
/** The steps that touch an element: the ones `heal: agent` hands to a planner. */
type PointedStep = Extract<RunStep, { kind: 'tap' | 'double_tap' | 'long_press' }>;

/** A step handed to the healing planner: the action it chose, on the screen it chose it on. */
interface Healing {
  step: PointedStep;
  selector: Selector;
  screen: Observation;
  action: StepAction;
}

const WAIT_POLL_MS = 200;

/**
 * Replays a flow without a model: each decision is the next step, its element found on the screen the agent
 * loop just observed (the loop waits for the screen to settle after every action). A selector the tree cannot
 * answer is looked for in the pixels (OCR, icons) — the healing the step log reports —, and one that names
 * several elements without `index` fails naming them: a flow never taps something else.
 */
export function createFlowPlanner(): Planner {
  return {
    name: FLOW_PLANNER_NAME,
    begin: (context) => new FlowSession(context),
  };
}

class FlowSession implements PlannerSession {
  private readonly steps: RunStep[];
  private next = 0;
  private swipes = 0;
  /** The step whose action ran last: the one a failed action's feedback is about. */
  private acting: RunStep | undefined;
  private healing: Healing | undefined;
  private readonly patches: FlowPatch[] = [];
  /** What the healing planner's sessions spent (a model's tokens). */
  private readonly healerSessions: PlannerSession[] = [];

  constructor(private readonly context: PlannerContext) {
    this.steps = context.flow ? stepsOf(context.flow) : [];
  }

  usage(): TaskUsage | undefined {
    const spent = this.healerSessions.map((s) => s.usage()).filter((u): u is TaskUsage => u !== undefined);
    if (spent.length === 0) return undefined;
    return { inputTokens: spent.reduce((n, u) => n + u.inputTokens, 0), outputTokens: spent.reduce((n, u) => n + u.outputTokens, 0) };
  }

  suggestedPatch(): FlowPatch[] | undefined {
    return this.patches.length > 0 ? [...this.patches] : undefined;
  }

  async decide(observation: Observation, feedback?: StepFeedback): Promise<Decision> {
    const flow = this.context.flow;
    if (!flow) return { kind: 'fail', message: 'The flow planner replays flows: start it with run_flow.', reason: 'planner_error' };
    if (feedback?.outcome.status === 'error') {
      return this.failStep(this.acting, `${feedback.action.operation} failed: ${feedback.outcome.detail}`, 'device_error');
    }
    const healed = this.healing;
    this.healing = undefined;
    if (healed) {
      const by = this.context.healer?.name ?? 'healing';
      if (feedback?.outcome.status !== 'ok') {
        return this.failStep(healed.step, `${describeSelector(healed.selector)} is not on the screen, and the ${by} planner's ${healed.action.operation} did not do it: ${feedback?.outcome.detail ?? 'no outcome'}`, 'target_not_found');
      }
      this.patches.push(patchOf(healed));
    }
    while (this.next < this.steps.length) {
      const step = this.steps[this.next] as RunStep;
      const decision = await this.run(step, observation);
      if (decision === 'passed') {
        this.next++;
        this.swipes = 0;
        continue;
      }
      return decision;
    }
    return { kind: 'done', result: `Flow "${flow.name}": ${this.steps.length} step(s) passed.` };
  }

  /** One step on the current screen: an action to take, a check that passed, or a failure. */
  private async run(step: RunStep, screen: Observation): Promise<Decision | 'passed'> {
    const act = (operation: string, args: Record<string, unknown>, why: string, change = true): Decision => {
      this.acting = step;
      // scroll_until stays the current step: it checks again after each swipe.
      if (step.kind !== 'scroll_until') this.next++;
      // Written steps: a flow that taps the same switch five times means it (each step runs once, in order).
      return { kind: 'act', action: { operation, arguments: args }, why: `Step ${step.number} (${step.kind}): ${why}`, deliberate: true, ...(change ? { expect: { change: true } } : {}) };
    };
    // The action the flow wrote out: the same one the flow was checked with before it started.
    const written = (why: string, change = true): Decision => {
      const action = writtenActionOf(step);
      if (!action) throw new Error(`no written action for a ${step.kind} step`);
      return act(action.operation, action.arguments, why, change);
    };
    switch (step.kind) {
      case 'launch':
        return written(`open ${step.args}`);
      case 'tap':
      case 'double_tap': {
        const found = await this.resolve(step.args, screen);
        if (found.kind === 'missing' && this.healsWithAgent()) return this.handToHealer(step, step.args, screen);
        if (found.kind !== 'found') return this.unresolved(step, step.args, found, screen);
        return act(step.kind, { ...found.candidate.center }, `${found.candidate.description}${healed(found)}`);
      }
      case 'long_press': {
        const found = await this.resolve(step.args.selector, screen);
        if (found.kind === 'missing' && this.healsWithAgent()) return this.handToHealer(step, step.args.selector, screen);
        if (found.kind !== 'found') return this.unresolved(step, step.args.selector, found, screen);
        const duration = step.args.durationMs === undefined ? {} : { durationMs: step.args.durationMs };
        return act('long_press', { ...found.candidate.center, ...duration }, `${found.candidate.description}${healed(found)}`);
      }
      case 'type':
        return written('type into the focused field');
      case 'swipe':
        return written(`swipe ${step.args.direction}`);
      case 'scroll_until': {
        if (treeCandidates({ text: step.args.text }, screen).length > 0) return 'passed';
        const max = step.args.maxSwipes ?? FLOW_LIMITS.defaultScrollSwipes;
        if (this.swipes >= max) return this.failStep(step, `"${step.args.text}" did not appear after ${max} swipe(s); the screen shows: ${summarizeObservation(screen)}`, 'target_not_found');
        this.swipes++;
        const direction = step.args.direction ?? 'up';
        return written(`swipe ${direction} (${this.swipes} of at most ${max}) looking for "${step.args.text}"`);
      }
      case 'press':
        return written(`press ${step.args}`);
      case 'open_url':
        return written(`open ${step.args}`);
      case 'handle_alert':
        return written('answer the alert');
      case 'set_orientation':
        return written(`turn to ${step.args}`);
      case 'hide_keyboard':
        return written('hide the keyboard', false);
      case 'assert_visible': {
        const found = await this.resolve(step.args, screen);
        if (found.kind === 'found') return 'passed';
        return this.unresolved(step, step.args, found, screen);
      }
      case 'assert_not_visible': {
        const found = choose(step.args, treeCandidates(step.args, screen), 'tree');
        if (found.kind === 'missing') return 'passed';
        return this.failStep(step, `${describeSelector(step.args)} is still on the screen; it shows: ${summarizeObservation(screen)}`, 'infeasible');
      }
      case 'wait_for':
        return this.waitFor(step, screen);
    }
  }

  private async waitFor(step: Extract<RunStep, { kind: 'wait_for' }>, first: Observation): Promise<Decision | 'passed'> {
    const { text, gone = false, timeoutMs = FLOW_LIMITS.defaultWaitMs } = step.args;
    const until = Date.now() + timeoutMs;
    let screen = first;
    for (;;) {
      if ((treeCandidates({ text }, screen).length > 0) !== gone) return 'passed';
      if (Date.now() >= until) {
        return this.failStep(step, `"${text}" did not ${gone ? 'go' : 'appear'} within ${timeoutMs} ms; the screen shows: ${summarizeObservation(screen)}`, 'timeout');
      }
      await delay(WAIT_POLL_MS, this.context.signal);
      if (this.context.signal.aborted) return this.failStep(step, 'stopped while waiting', 'timeout');
      screen = await this.observe();
    }
  }

  /**
   * The screen's description first; a text or icon it does not name is asked of the finders: find_text (the
   * whole tree, then the pixels) or find_icon (labels, then glyphs in the pixels).
   */
  private async resolve(selector: Selector, screen: Observation): Promise<Resolution> {
    if (selector.point) return { kind: 'found', candidate: { description: `the point (${selector.point.x}, ${selector.point.y})`, center: selector.point }, source: 'point' };
    const inTree = choose(selector, treeCandidates(selector, screen), 'tree');
    const canHeal = this.context.flow?.heal !== 'none' && (selector.text !== undefined || selector.icon !== undefined) && selector.role === undefined;
    if (inTree.kind !== 'missing' || !canHeal) return inTree;
    const result = selector.text !== undefined
      ? await this.context.query('find_text', { text: selector.text })
      : await this.context.query('find_icon', { name: selector.icon });
    const matches = (result.output as { matches?: FinderMatch[] }).matches ?? [];
    const { candidates, source } = finderCandidates(matches, selector.text);
    return choose(selector, candidates, source);
  }

  private healsWithAgent(): boolean {
    return this.context.flow?.heal === 'agent' && this.context.healer !== undefined;
  }

  /**
   * `heal: agent`: a planner gets the step as its goal and this screen, and decides one action. Only the same
   * kind of touch is taken (a tap for a tap); its outcome is checked at the next decision, where a step that
   * did what it should becomes a suggested change to the flow.
   */
  private async handToHealer(step: PointedStep, selector: Selector, screen: Observation): Promise<Decision> {
    const healer = this.context.healer as NonNullable<PlannerContext['healer']>;
    const goal = goalOf(step.kind, selector);
    const notFound = `${describeSelector(selector)} is not on the screen (neither among its elements nor in its pixels)`;
    let decision: Decision;
    try {
      const session = healer.begin(goal);
      this.healerSessions.push(session);
      decision = await session.decide(screen);
    } catch (error) {
      return this.failStep(step, `${notFound}; the ${healer.name} planner could not heal it: ${toPublicError(error).message}`, 'target_not_found');
    }
    if (decision.kind !== 'act' || decision.action.operation !== step.kind) {
      const why = decision.kind === 'fail' ? decision.message : decision.kind === 'done' ? 'it found nothing to do' : `it chose ${decision.action.operation}, not ${step.kind}`;
      return this.failStep(step, `${notFound}; the ${healer.name} planner did not heal it (${why}); it shows: ${summarizeObservation(screen)}`, 'target_not_found');
    }
    this.healing = { step, selector, screen, action: decision.action };
    this.acting = step;
    this.next++;
    const because = decision.why ? `: ${decision.why}` : '';
    return { kind: 'act', action: decision.action, why: `Step ${step.number} (${step.kind}): healed by the ${healer.name} planner ("${goal}")${because}`, expect: { change: true } };
  }

  private unresolved(step: RunStep, selector: Selector, found: Exclude<Resolution, { kind: 'found' }>, screen: Observation): Decision {
    if (found.kind === 'ambiguous') {
      const names = found.candidates.slice(0, 6).map((c, i) => `[${i}] ${c.description}`).join('; ');
      return this.failStep(step, `${describeSelector(selector)} names ${found.candidates.length} elements: ${names}. Add index (or a role) to choose one.`, 'infeasible');
    }
    const looked = this.context.flow?.heal === 'none' ? 'not among its elements; heal: none looks no further' : 'neither among its elements nor in its pixels';
    return this.failStep(step, `${describeSelector(selector)} is not on the screen (${looked}); it shows: ${summarizeObservation(screen)}`, 'target_not_found');
  }

  private failStep(step: RunStep | undefined, message: string, reason: 'target_not_found' | 'infeasible' | 'timeout' | 'device_error'): Decision {
    const where = step ? `Step ${step.number} (${step.kind}): ` : '';
    return { kind: 'fail', message: `${where}${message}`, reason };
  }

  private async observe(): Promise<Observation> {
    return observationOfResult(await this.context.query('describe_screen', { includeOcrText: false }));
  }
}

/** A pointed step as a planner's goal, in the words the offline planner reads ("tap General"). */
function goalOf(kind: PointedStep['kind'], selector: Selector): string {
  const verb = kind === 'tap' ? 'tap' : kind === 'double_tap' ? 'double tap' : 'long press';
  const name = selector.text ?? selector.label ?? (selector.icon !== undefined ? `the ${selector.icon} icon` : `the ${selector.role ?? 'element'}`);
  return `${verb} ${name}`;
}

/** The healed step as written and as the planner's action names it, on the screen the action was chosen on. */
function patchOf({ step, selector, screen, action }: Healing): FlowPatch {
  const written = step.kind === 'long_press' ? { long_press: { ...step.args, selector: compact(selector) } } : { [step.kind]: compact(selector) };
  const now = flowStepOf({ action, target: targetOf(action, screen) });
  return { step: step.number, was: yamlOf(written), now: typeof now === 'object' ? yamlOf(now) : yamlOf(written) };
}

function yamlOf(step: Record<string, unknown>): string {
  return stringify(step, { lineWidth: 0 }).trim();
}

function healed(found: Resolution): string {
  return found.kind === 'found' && found.source === 'pixels' ? ' (healed: not in the tree, found in the pixels)' : '';
}

/** The flow's steps as run, numbered as written (1-based); `app` first, `type {into}` as a tap then the typing. */
function stepsOf(flow: Flow): RunStep[] {
  const steps: RunStep[] = [];
  if (flow.app !== undefined) steps.push({ kind: 'launch', args: flow.app, number: 0 });
  flow.steps.forEach((step, i) => {
    const number = i + 1;
    if (step.kind === 'type' && step.args.into) steps.push({ kind: 'tap', args: step.args.into, number });
    steps.push({ ...step, number } as RunStep);
  });
  return steps;
}
