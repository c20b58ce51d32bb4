import { toPublicError, type ErrorCode } from '@apex/errors';
import type { OperationResult } from '@apex/capability';
import type { Flow } from '../flows/flow-schema';
import type { FailureReason, FlowPatch, StepAction, StepOutcome, TaskAnswer, TaskError, TaskStep, TaskUsage } from '../model/task';
import type { DeviceSession } from './device-session';
import { elementOf, targetOf } from '../flows/step-target';
import { delay } from './delay';
import { observationOf, observationOfResult, screenHasText, summarizeObservation, type Observation } from './observation';
import type { Decision, Expectation, Planner, PlannerSession, StepFeedback } from './planner';

export interface AgentTask {
  id: string;
  goal: string;
  flow?: Flow;
  maxSteps: number;
  timeoutMs: number;
}

export interface AgentOptions {
  task: AgentTask;
  planner: Planner;
  device: DeviceSession;
  /** Aborted by a cancel request; honoured at the next step boundary. */
  cancelSignal: AbortSignal;
  /** Also asked at each step boundary: a cancel recorded elsewhere (e.g. by another process sharing the store). */
  cancelRequested?: () => boolean | Promise<boolean>;
  /** Persists each step as it completes (with its screenshot, when taken). */
  onStep(step: TaskStep, screenshot?: Buffer): void | Promise<void>;
  /** Take a small screenshot after each action (default true). */
  stepScreenshots?: boolean;
  /** Read the pixels (OCR) when observing; slower, helps planners that read the description (default false). */
  observeWithOcr?: boolean;
  /** Most observations while waiting for the screen to settle after an action (default 6). */
  settleMaxObservations?: number;
  /** Pause between settle observations, doubled each time (default 40 ms). */
  settlePollMs?: number;
  /** How often the same action may run on the same screen before the planner is told to change approach (default 2). */
  repeatLimit?: number;
  /** A flow with `heal: agent`: the planner a step the flow cannot find is handed to. */
  healer?: Planner;
  /**
   * Run actions with `observe: "describe"` and take the settled screen they answer as the next observation
   * (settled on the device side), instead of describing the screen again (default true). false: the way before
   * refs, an observation of its own after every action (the bench compares both).
   */
  observeFromActions?: boolean;
  /** Planners act on elements by `ref` (default true); false: by coordinates, as before refs. */
  actByRef?: boolean;
}

export type AgentOutcome =
  | { status: 'succeeded'; result: string; answer?: TaskAnswer; usage?: TaskUsage; suggestedPatch?: FlowPatch[] }
  | { status: 'failed'; error: TaskError; usage?: TaskUsage; suggestedPatch?: FlowPatch[] }
  | { status: 'cancelled'; usage?: TaskUsage };

/** The abort reason that means "Apex is shutting down", not "the user cancelled". */
export const SHUTDOWN = 'shutdown';

const CANCEL_ACTION: StepAction = { operation: 'cancel_task', arguments: {} };
const MAX_CONSECUTIVE_ERRORS = 3;
const OBSERVE_RETRY_MS = 500;

class Stop extends Error {
  constructor(readonly outcome: AgentOutcome) {
    super('stop');
  }
}

/**
 * Pursues a goal: observe (describe_screen) → decide (planner) → act (one operation) → check (settled screen
 * against the planner's expectation) → repeat, until the planner is done or gives up, or a limit, a cancel
 * or the wall-clock timeout stops it. Cancels and timeouts take effect at step boundaries (an in-flight
 * device action finishes first; a model request is aborted).
 */
export async function runAgent(options: AgentOptions): Promise<AgentOutcome> {
  const recorder = new StepRecorder(options.onStep);
  const outcome = await pursue(options, recorder);
  await recorder.done();
  return outcome;
}

async function pursue(options: AgentOptions, recorder: StepRecorder): Promise<AgentOutcome> {
  const { task, device, planner } = options;
  const started = Date.now();
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error('timeout')), task.timeoutMs);
  timer.unref?.();
  const signal = AbortSignal.any([options.cancelSignal, deadline.signal]);
  const settleMax = options.settleMaxObservations ?? 6;
  const settlePoll = options.settlePollMs ?? 40;
  const repeatLimit = options.repeatLimit ?? 2;
  const takeScreenshots = options.stepScreenshots ?? true;
  const observeFromActions = options.observeFromActions ?? true;
  const actByRef = options.actByRef ?? true;

  const query = (operation: string, args: Record<string, unknown>) => device.run(operation, args);
  const healer = options.healer;
  const session: PlannerSession = planner.begin({
    goal: task.goal,
    flow: task.flow,
    deviceId: device.deviceId,
    signal,
    query,
    actByRef,
    ...(healer ? { healer: { name: healer.name, begin: (goal: string) => healer.begin({ goal, deviceId: device.deviceId, signal, query, actByRef }) } } : {}),
  });
  const usage = () => session.usage();
  const patch = () => session.suggestedPatch?.();
  const steps: TaskStep[] = [];
  const repeats = new Map<string, number>();
  const warned = new Set<string>();
  let feedback: StepFeedback | undefined;
  let consecutiveErrors = 0;
  const keep = (step: TaskStep, shot: Promise<Buffer | undefined> | undefined) => recorder.keep(step, shot);

  const fail = (reason: FailureReason, message: string, code: ErrorCode = 'internal'): Stop =>
    new Stop({ status: 'failed', error: { code, message, reason }, usage: usage(), suggestedPatch: patch() });

  /** Between steps: a cancel wins over a timeout, both over the step limit. */
  const checkBoundary = async (observation: Observation | undefined): Promise<void> => {
    if (options.cancelSignal.aborted && options.cancelSignal.reason === SHUTDOWN) {
      throw fail('interrupted', `The task was interrupted after ${steps.length} step(s): Apex is shutting down.`, 'internal');
    }
    if (options.cancelSignal.aborted || (await options.cancelRequested?.())) {
      const step: TaskStep = {
        index: steps.length,
        observation: observation ? summarizeObservation(observation) : '',
        action: CANCEL_ACTION,
        outcome: { status: 'cancelled', detail: `Cancelled by request after ${steps.length} step(s).` },
        durationMs: 0,
      };
      steps.push(step);
      keep(step, undefined);
      throw new Stop({ status: 'cancelled', usage: usage() });
    }
    if (deadline.signal.aborted || Date.now() - started >= task.timeoutMs) {
      throw fail('timeout', `The task did not finish within ${Math.round(task.timeoutMs / 1000)} s (${steps.length} step(s) taken).`, 'device_timeout');
    }
  };

  /** One retry for a failure the device says may pass (a timeout, a reconnect), then the task fails. */
  const observe = async (): Promise<Observation> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return observationOfResult(await device.run('describe_screen', { includeOcrText: options.observeWithOcr ?? false }));
      } catch (error) {
        const pub = toPublicError(error);
        if (attempt >= 2 || !pub.retryable || signal.aborted) {
          throw fail('device_error', `Could not read the screen: ${pub.message}`, pub.code);
        }
        await delay(OBSERVE_RETRY_MS, signal);
      }
    }
  };

  /**
   * Polls until two observations in a row match and the screen shows what the action was expected to do
   * (bounded), instead of sleeping a fixed time: a slow transition is waited for, a quick one is not.
   */
  const settle = async (before: Observation, expect: Expectation | undefined): Promise<{ screen: Observation; waitedFor?: string }> => {
    const first = await observe();
    let previous = first;
    let pause = settlePoll;
    for (let i = 1; i < settleMax; i++) {
      await delay(pause, signal);
      pause *= 2;
      const next = await observe();
      // Settled on a later look than the second: the step needed a wait, for what was not there at first.
      if (next.fingerprint === previous.fingerprint && looksDone(before, next, expect)) return { screen: next, ...(i > 1 ? { waitedFor: appearedText(first, next) } : {}) };
      previous = next;
    }
    return { screen: previous };
  };

  const decide = async (observation: Observation): Promise<Decision> => {
    try {
      return await session.decide(observation, feedback);
    } catch (error) {
      await checkBoundary(observation);
      if (error instanceof Stop) throw error;
      const pub = toPublicError(error);
      throw fail('planner_error', `The planner failed: ${pub.message}`, pub.code);
    }
  };

  try {
    let observation = await observe();
    for (;;) {
      await checkBoundary(observation);
      if (steps.length >= task.maxSteps) {
        throw fail('step_limit', `The goal was not reached within ${task.maxSteps} step(s).`, 'internal');
      }
      let decision = await decide(observation);
      await checkBoundary(observation);

      if (decision.kind === 'act' && !decision.deliberate) {
        const key = `${observation.fingerprint}|${actionKey(decision.action, observation)}`;
        if ((repeats.get(key) ?? 0) >= repeatLimit) {
          if (warned.has(key)) {
            throw fail('loop', `Stuck: "${decision.action.operation}" was chosen again on the same screen with no progress.`, 'internal');
          }
          warned.add(key);
          feedback = {
            action: decision.action,
            outcome: { status: 'unexpected', detail: 'Not run: the same action already ran twice on this same screen.' },
            loopWarning: `You already ran ${decision.action.operation} ${JSON.stringify(decision.action.arguments)} twice on this same screen without progress. Change approach, or give up.`,
          };
          decision = await decide(observation);
          await checkBoundary(observation);
          if (decision.kind === 'act' && (repeats.get(`${observation.fingerprint}|${actionKey(decision.action, observation)}`) ?? 0) >= repeatLimit) {
            throw fail('loop', `Stuck: "${decision.action.operation}" was chosen again on the same screen with no progress.`, 'internal');
          }
        }
      }

      if (decision.kind === 'done') return { status: 'succeeded', result: decision.result, answer: decision.answer, usage: usage(), suggestedPatch: patch() };
      if (decision.kind === 'fail') {
        const reason = decision.reason ?? 'infeasible';
        const stop = fail(reason, decision.message, reason === 'target_not_found' ? 'element_not_found' : 'unsupported_operation');
        // The screen the planner gave up on is the one the last action left (its screenshot, once kept).
        await recorder.idle();
        const last = steps[steps.length - 1];
        if (last?.screenshotRef && stop.outcome.status === 'failed') stop.outcome.error.screenshotStep = last.index + 1;
        throw stop;
      }

      const { action, expect, why } = decision;
      const key = `${observation.fingerprint}|${actionKey(action, observation)}`;
      repeats.set(key, (repeats.get(key) ?? 0) + 1);
      const before = observation;
      const t0 = Date.now();
      let result: OperationResult | undefined;
      let outcome: StepOutcome;
      // The action answers the settled screen after it; the step log keeps the planner's own arguments.
      const fromAction = observeFromActions && !device.isReadOnly(action.operation) && (device.observes?.(action.operation) ?? false);
      try {
        result = fromAction
          ? await device.run(action.operation, { ...action.arguments, observe: 'describe' }, { observeWithOcr: options.observeWithOcr ?? false })
          : await device.run(action.operation, action.arguments);
        consecutiveErrors = 0;
        if (device.isReadOnly(action.operation)) {
          outcome = { status: 'ok', detail: truncate(result.summary, 300) };
        } else {
          // Settled on the device side; looked at again here only while it does not yet show what was expected.
          const reported = fromAction && result.screen ? observationOf(result.screen) : undefined;
          const settled = reported && looksDone(before, reported, expect) ? { screen: reported } : await settle(before, expect);
          observation = settled.screen;
          outcome = await check(before, observation, expect, device);
          if (settled.waitedFor) outcome.waitedFor = settled.waitedFor;
        }
      } catch (error) {
        if (error instanceof Stop) throw error;
        const pub = toPublicError(error);
        outcome = { status: 'error', detail: pub.message, code: pub.code };
        consecutiveErrors += 1;
        if (pub.code === 'device_offline' || consecutiveErrors >= MAX_CONSECUTIVE_ERRORS) {
          const step = record(steps, before, action, outcome, Date.now() - t0, why);
          keep(step, undefined);
          throw fail('device_error', `${action.operation} failed: ${pub.message}`, pub.code);
        }
        observation = await observe();
      }
      const step = record(steps, before, action, outcome, Date.now() - t0, why);
      keep(step, takeScreenshots && !device.isReadOnly(action.operation) ? screenshot(device) : undefined);
      feedback = { action, outcome, result };
    }
  } catch (error) {
    if (error instanceof Stop) return error.outcome;
    const pub = toPublicError(error);
    return { status: 'failed', error: { code: pub.code, message: pub.message, reason: 'device_error' }, usage: usage() };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Records steps in order, each once its screenshot is in. The screenshot is asked for at once (the device's
 * queue takes it before the next action, so it shows that step's settled screen), but its encoding overlaps
 * the next decision and action instead of holding them up.
 */
class StepRecorder {
  private recorded: Promise<void> = Promise.resolve();
  /** The first failure to record a step: held (never an unhandled rejection), thrown by `done`. */
  private failure: { error: unknown } | undefined;

  constructor(private readonly onStep: AgentOptions['onStep']) {}

  keep(step: TaskStep, shot: Promise<Buffer | undefined> | undefined): void {
    const previous = this.recorded;
    this.recorded = (async () => {
      const image = await shot;
      await previous;
      if (!this.failure) await this.onStep(step, image);
    })().catch((error: unknown) => {
      this.failure ??= { error };
    });
  }

  /** Every step kept so far is recorded. */
  idle(): Promise<void> {
    return this.recorded;
  }

  /** Every step is in the log (a failure to record one fails the task). */
  async done(): Promise<void> {
    await this.recorded;
    if (this.failure) throw this.failure.error;
  }
}

/** The first label (in reading order) the settled screen shows that the first look after the action did not. */
function appearedText(first: Observation, settled: Observation): string | undefined {
  const seen = new Set(first.screen.elements.map((e) => e.label));
  const appeared = settled.screen.elements.filter((e) => e.label && !seen.has(e.label)).sort((a, b) => a.center.y - b.center.y || a.center.x - b.center.x);
  return appeared[0]?.label;
}

/** The cheap part of the check (no look-ups): has the screen done what the action was meant to do? */
function looksDone(before: Observation, after: Observation, expect: Expectation | undefined): boolean {
  if (!expect) return true;
  if (expect.change && before.fingerprint === after.fingerprint) return false;
  if (expect.appId && after.screen.app?.appId !== expect.appId) return false;
  if (expect.keyboard !== undefined && after.screen.keyboardVisible !== expect.keyboard) return false;
  return true;
}

/** The planner's `why` leads the outcome's account, so the step log says why the step was taken. */
function record(steps: TaskStep[], before: Observation, action: StepAction, outcome: StepOutcome, durationMs: number, why?: string): TaskStep {
  const told = why ? { ...outcome, detail: `${why}. ${outcome.detail}` } : outcome;
  const step: TaskStep = { index: steps.length, observation: summarizeObservation(before), action, outcome: told, durationMs };
  const target = targetOf(action, before);
  if (target) step.target = target;
  steps.push(step);
  return step;
}

async function check(before: Observation, after: Observation, expect: Expectation | undefined, device: DeviceSession): Promise<StepOutcome> {
  const changed = before.fingerprint !== after.fingerprint;
  const problems: string[] = [];
  if (expect?.change && !changed) problems.push('the screen did not change');
  if (expect?.appId && after.screen.app?.appId !== expect.appId) {
    problems.push(`${expect.appId} is not in the foreground (${after.screen.app?.appId ?? 'unknown'} is)`);
  }
  if (expect?.keyboard !== undefined && after.screen.keyboardVisible !== expect.keyboard) {
    problems.push(expect.keyboard ? 'no keyboard appeared' : 'the keyboard is still up');
  }
  if (expect?.textPresent && !screenHasText(after, expect.textPresent) && !(await textOnScreen(device, expect.textPresent))) {
    problems.push(`"${expect.textPresent}" is not on the screen`);
  }
  if (problems.length > 0) return { status: 'unexpected', detail: `Done, but ${problems.join('; ')}.` };
  return { status: 'ok', detail: changed ? `Screen now: ${summarizeObservation(after)}` : 'Done; the screen looks the same.' };
}

/** The tree may lack text that only exists as pixels: ask find_text, which also reads them. */
async function textOnScreen(device: DeviceSession, text: string): Promise<boolean> {
  try {
    const result = await device.run('find_text', { text: text.slice(0, 2_000) });
    return ((result.output['matches'] as unknown[] | undefined) ?? []).length > 0;
  } catch {
    return false;
  }
}

async function screenshot(device: DeviceSession): Promise<Buffer | undefined> {
  try {
    const result = await device.run('take_screenshot', { format: 'jpeg', maxWidth: 400 });
    return result.image?.data;
  } catch {
    return undefined;
  }
}

/**
 * What makes two actions on one screen the same: the operation and its arguments, the element they name counted
 * once (a ref, or the point at that element's centre, is that element's ref), how much to observe after not.
 */
function actionKey(action: StepAction, screen: Observation): string {
  const { observe: _observe, ...args } = action.arguments;
  const element = elementOf(action, screen);
  if (element?.ref) {
    delete args['x'];
    delete args['y'];
    args['ref'] = element.ref;
  }
  return `${action.operation}:${stableJson(args)}`;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
