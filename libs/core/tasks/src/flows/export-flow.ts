import { stringify } from 'yaml';
import { invalidArgument } from '@apex/errors';
import { FINAL_STATUSES, type Task, type TaskStep } from '../model/task';
import { REDACTED_TEXT } from '../service/typed-text-redactor';
import { FLOW_LIMITS, type Selector } from './flow-schema';

export interface ExportedFlow {
  /** The flow as an object (what run_flow takes as `flow`). */
  flow: { name: string; steps: Record<string, unknown>[] };
  yaml: string;
  /** Variables the flow needs at replay: the typed text the log redacted. */
  variables: string[];
  /** Steps the flow vocabulary has no word for, or that failed: left out, with why. */
  skipped: string[];
}

/**
 * A finished task as a flow: each action that ran becomes the step of the same meaning, its element named by
 * the selector recorded on that step's screen (coordinates only where no element was at the point). Typed
 * text the log redacted becomes a variable (`${text1}`) to fill at replay.
 */
export function exportFlow(task: Task): ExportedFlow {
  // A flow of what ran so far would replay less than the task does, with nothing in it to say so: refused.
  if (!FINAL_STATUSES.has(task.status)) {
    throw invalidArgument(`Task ${task.id} is ${task.status}: a flow is exported from a finished task.`, [{ path: 'taskId', message: `the task is ${task.status}` }], 'Wait until get_task shows it succeeded, failed or was cancelled, then export it.');
  }
  const steps: Record<string, unknown>[] = [];
  const variables: string[] = [];
  const skipped: string[] = [];
  for (const step of task.steps) {
    if (step.outcome.status === 'error' || step.outcome.status === 'cancelled') {
      if (step.outcome.status === 'error') skipped.push(`step ${step.index + 1} (${step.action.operation}): it failed`);
      continue;
    }
    const converted = flowStepOf(step, variables);
    if (converted === undefined) continue;
    if (typeof converted === 'string') skipped.push(`step ${step.index + 1} (${step.action.operation}): ${converted}`);
    else steps.push(converted);
    // The screen was slow to show what this step did: the replay waits for it too, past the usual settle.
    if (typeof converted !== 'string' && step.outcome.waitedFor) steps.push({ wait_for: { text: step.outcome.waitedFor } });
  }
  const flow = { name: truncate(`From task: ${task.goal}`, 200), steps };
  const needs = variables.length > 0 ? `# Give the typed text at replay: ${variables.map((v) => `--var ${v}=…`).join(' ')}\n` : '';
  const header = `# Recorded from task ${task.id} (${task.status}, planner ${task.planner}).\n${needs}`;
  return { flow, yaml: header + stringify(flow, { lineWidth: 0 }), variables, skipped };
}

/** One step of the log as a flow step; a string says why it has none; undefined for look-ups (not actions). */
export function flowStepOf(step: Pick<TaskStep, 'action' | 'target'>, variables: string[] = []): Record<string, unknown> | string | undefined {
  const args = step.action.arguments;
  const at = (): Selector => step.target ?? { point: { x: Number(args['x']), y: Number(args['y']) } };
  // A ref names an element of one device session only: without the selector recorded for it, no step.
  if (!step.target && typeof args['ref'] === 'string' && POINTED_BY_REF.has(step.action.operation)) return 'its element (a ref) was not on the screen it was chosen on';
  switch (step.action.operation) {
    case 'launch_app':
      return { launch: String(args['appId'] ?? args['name']) };
    case 'tap':
    case 'double_tap':
      return { [step.action.operation]: compact(at()) };
    case 'long_press':
      return { long_press: { selector: compact(at()), ...(args['durationMs'] === undefined ? {} : { durationMs: args['durationMs'] }) } };
    case 'input_text': {
      let text = String(args['text']);
      if (text === REDACTED_TEXT && typeof args['length'] === 'number') {
        const name = `text${variables.length + 1}`;
        variables.push(name);
        text = `\${${name}}`;
      }
      const into = step.target ? { into: compact(step.target) } : {};
      return { type: args['submit'] || step.target ? { text, ...into, ...(args['submit'] ? { submit: true } : {}) } : text };
    }
    case 'swipe':
      return { swipe: typeof args['direction'] === 'string' ? args['direction'] : directionOf(args) };
    case 'press_button':
      return { press: args['button'] };
    case 'open_url':
      return { open_url: args['url'] };
    case 'handle_alert':
      return { handle_alert: args['action'] === 'press' ? { press: args['button'] } : args['action'] };
    case 'set_orientation':
      return { set_orientation: args['orientation'] };
    case 'hide_keyboard':
      return { hide_keyboard: true };
    case 'wait_for':
      return waitStepOf(args);
    case 'find_text':
    case 'find_icon':
    case 'describe_screen':
    case 'get_ui_tree':
    case 'take_screenshot':
    case 'device_status':
    case 'list_apps':
    case 'get_clipboard':
      return undefined;
    default:
      return 'flows have no step for it';
  }
}

/** Steps whose element an action may name by ref. */
const POINTED_BY_REF = new Set(['tap', 'double_tap', 'long_press', 'input_text']);

/**
 * A wait the task asked for: for a text to appear (or go) it is a flow's `wait_for`; a wait for the screen to
 * settle is left out, since every flow step waits for that.
 */
function waitStepOf(args: Record<string, unknown>): Record<string, unknown> | undefined {
  if (typeof args['text'] !== 'string' || args['text'] === '') return undefined;
  const timeoutMs = typeof args['timeoutMs'] === 'number' ? Math.min(Math.round(args['timeoutMs']), FLOW_LIMITS.maxWaitMs) : undefined;
  return { wait_for: { text: args['text'], ...(args['gone'] === true ? { gone: true } : {}), ...(timeoutMs === undefined ? {} : { timeoutMs }) } };
}

/** `{text: General}` reads best as `General`. */
export function compact(selector: Selector): Selector | string {
  const keys = Object.keys(selector);
  return keys.length === 1 && selector.text !== undefined ? selector.text : selector;
}

/** A from/to swipe as the direction the finger mostly moved. */
function directionOf(args: Record<string, unknown>): string {
  const from = args['from'] as { x: number; y: number } | undefined;
  const to = args['to'] as { x: number; y: number } | undefined;
  if (!from || !to) return 'up';
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  return Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 'right' : 'left') : dy > 0 ? 'down' : 'up';
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
