import type { OperationResult } from '@apex/capability';
import type { FailureReason, FlowPatch, StepAction, StepOutcome, TaskAnswer, TaskUsage } from '../model/task';
import type { Flow } from '../flows/flow-schema';
import type { Observation } from './observation';

/** What the agent loop checks after an action, once the screen has settled. */
export interface Expectation {
  /** The screen should look different afterwards. */
  change?: boolean;
  /** This text should be on the screen afterwards. */
  textPresent?: string;
  /** This app should be in the foreground afterwards. */
  appId?: string;
  /** The keyboard should be up afterwards. */
  keyboard?: boolean;
}

export type Decision =
  /**
   * Run one operation from the catalog (the device is implied); `why` leads the step's outcome in the log.
   * `deliberate`: a repeat was asked for (a flow's written steps), not a planner going round in circles, so
   * the loop's repeat guard lets it run.
   */
  | { kind: 'act'; action: StepAction; expect?: Expectation; why?: string; deliberate?: boolean }
  /** The goal is reached; `answer`: a question's answer as a value. */
  | { kind: 'done'; result: string; answer?: TaskAnswer }
  /** The goal cannot be reached; `reason` defaults to `infeasible`. */
  | { kind: 'fail'; message: string; reason?: FailureReason };

/** What happened to the previous action, for the planner's next decision. */
export interface StepFeedback {
  action: StepAction;
  outcome: StepOutcome;
  /** The operation's result, when it succeeded. */
  result?: OperationResult;
  /** Set when the loop refused a repeated action: choose something else. */
  loopWarning?: string;
}

export interface PlannerContext {
  goal: string;
  /** The flow a `flow` task replays. */
  flow?: Flow;
  deviceId: string;
  /** A read-only look-up through the catalog (find_text, find_icon, list_apps, …); not a step. */
  query(operation: string, args: Record<string, unknown>): Promise<OperationResult>;
  /** Aborted when the task is cancelled or times out. */
  signal: AbortSignal;
  /**
   * Act on elements by `ref` (tap {ref}), whose action answers the screen after it (default true); false: by
   * coordinates, each action followed by an observation of its own (the way before refs).
   */
  actByRef?: boolean;
  /** A flow with `heal: agent`: the planner that takes over one step the flow cannot find, with that step as its goal. */
  healer?: { name: string; begin(goal: string): PlannerSession };
}

/** One task's conversation with a planner. */
export interface PlannerSession {
  decide(observation: Observation, feedback?: StepFeedback): Promise<Decision>;
  /** Model tokens spent so far (LLM planners). */
  usage(): TaskUsage | undefined;
  /** The flow planner: the steps healed so far, as changes to the flow. */
  suggestedPatch?(): FlowPatch[] | undefined;
}

export interface Planner {
  readonly name: string;
  begin(context: PlannerContext): PlannerSession;
}
