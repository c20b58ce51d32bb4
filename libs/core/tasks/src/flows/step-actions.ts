import type { FieldIssue } from '@apex/errors';
import { findOperation, type AnyOperation } from '@apex/capability';
import type { StepAction } from '../model/task';
import type { Flow, FlowStep } from './flow-schema';

const APP_ID = /^[A-Za-z][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)+$/;

/**
 * The action a step takes, for the steps whose arguments are all written in the flow (a tap's point is only
 * known on the screen it runs on: undefined). The flow planner runs exactly these, and a flow is checked with
 * them before it starts.
 */
export function writtenActionOf(step: FlowStep): StepAction | undefined {
  switch (step.kind) {
    case 'launch':
      return { operation: 'launch_app', arguments: APP_ID.test(step.args) ? { appId: step.args } : { name: step.args } };
    case 'type':
      return { operation: 'input_text', arguments: { text: step.args.text, ...(step.args.submit ? { submit: true } : {}) } };
    case 'swipe':
      return { operation: 'swipe', arguments: { direction: step.args.direction } };
    case 'scroll_until':
      return { operation: 'swipe', arguments: { direction: step.args.direction ?? 'up' } };
    case 'press':
      return { operation: 'press_button', arguments: { button: step.args } };
    case 'open_url':
      return { operation: 'open_url', arguments: { url: step.args } };
    case 'handle_alert':
      return { operation: 'handle_alert', arguments: { ...step.args } };
    case 'set_orientation':
      return { operation: 'set_orientation', arguments: { orientation: step.args } };
    case 'hide_keyboard':
      return { operation: 'hide_keyboard', arguments: {} };
    default:
      return undefined;
  }
}

/** A step the operation it runs would refuse: where it is in the flow, and the operation's own complaints. */
export interface RefusedStep {
  /** The path of the step in the flow: `["app"]` or `["steps", i, kind]`. */
  path: (string | number)[];
  /** "step 3 (open_url)" or "app". */
  name: string;
  issues: FieldIssue[];
}

/**
 * Every step's action checked with its operation's own input schema (the catalog's, not a copy), so that a
 * flow one step of which could never run is refused before anything runs.
 */
export function refusedSteps(flow: Flow, operations?: readonly AnyOperation[]): RefusedStep[] {
  const refused: RefusedStep[] = [];
  const check = (step: FlowStep, path: (string | number)[], name: string) => {
    const action = writtenActionOf(step);
    const operation = action && findOperation(action.operation, operations);
    if (!action || !operation) return;
    const parsed = operation.input.safeParse(action.arguments);
    if (parsed.success) return;
    const issues = parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
    refused.push({ path, name, issues });
  };
  if (flow.app !== undefined) check({ kind: 'launch', args: flow.app }, ['app'], 'app');
  flow.steps.forEach((step, i) => check(step, ['steps', i, step.kind], `step ${i + 1} (${step.kind})`));
  return refused;
}
