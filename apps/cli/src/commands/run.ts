import { readFile } from 'node:fs/promises';
import { toPublicError } from '@apex/errors';
import { runOperation } from '@apex/capability';
import { UsageError, type CommandImpl } from '../cli';
import { startCommandRuntime } from './command-runtime';

/** `--var name=value`, each once. */
function varsOf(values: unknown): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const pair of Array.isArray(values) ? (values as string[]) : []) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`--var takes name=value, got "${pair}"`);
    vars[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return vars;
}

/**
 * `apex run FILE`: replays a flow on a device (the config's, or the embedded virtual iPhone) and prints a line
 * per step. Exit 0 when every step passed, 1 when the flow failed, 2 for a bad flow or usage (nothing ran).
 */
export const runCommand: CommandImpl = {
  options: { config: { type: 'string' }, device: { type: 'string' }, var: { type: 'string', multiple: true }, 'heal-planner': { type: 'string' } },
  async run(values, positionals) {
    if (positionals.length !== 1) throw new UsageError('apex run takes one flow file');
    const file = positionals[0] as string;
    const vars = varsOf(values.var);
    let yaml: string;
    try {
      yaml = await readFile(file, 'utf8');
    } catch {
      process.stderr.write(`apex run: cannot read ${file}\n`);
      return 2;
    }
    const runtime = await startCommandRuntime('run', values);
    if (typeof runtime === 'number') return runtime;
    try {
      const device = typeof values.device === 'string' ? values.device : undefined;
      // `heal: agent` flows: the planner that takes over a step not found (default: the configured one).
      const healPlanner = typeof values['heal-planner'] === 'string' ? values['heal-planner'] : undefined;
      const started = await runOperation(runtime, 'run_flow', { yaml, vars, ...(device ? { device } : {}), ...(healPlanner ? { healPlanner } : {}) }, runtime.operations);
      const task = await runtime.tasks.whenSettled(String(started.output.taskId));
      for (const step of task.steps) {
        process.stdout.write(`${step.index + 1}. ${step.action.operation} ${JSON.stringify(step.action.arguments)} → ${step.outcome.status}: ${step.outcome.detail} (${Math.round(step.durationMs)} ms)\n`);
      }
      for (const change of task.suggestedPatch ?? []) process.stdout.write(`suggested change to step ${change.step}: ${change.was} → ${change.now}\n`);
      if (task.status === 'succeeded') {
        process.stdout.write(`passed: ${task.result ?? ''}\n`);
        return 0;
      }
      const shot = task.error?.screenshotStep ? ` (the screen: step ${task.error.screenshotStep}'s screenshot)` : '';
      process.stdout.write(`${task.status}: ${task.error ? `${task.error.reason}: ${task.error.message}${shot}` : ''}\n`);
      return 1;
    } catch (error) {
      const pub = toPublicError(error);
      process.stderr.write(`apex run: ${pub.code}: ${pub.message}\n`);
      for (const issue of pub.issues ?? []) process.stderr.write(`  - ${issue.path || '(flow)'}: ${issue.message}\n`);
      if (pub.hint) process.stderr.write(`${pub.hint}\n`);
      return pub.code === 'invalid_argument' ? 2 : 1;
    } finally {
      await runtime.close();
    }
  },
};
