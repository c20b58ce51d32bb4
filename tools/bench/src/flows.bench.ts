/**
 * A 10-step flow through REST on the virtual iPhone (driven through the WDA driver over real HTTP): the time
 * from `POST /flows/run` to the task's end, per run. Issue 20's target: under 2 s.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRestLogger, startRestApi } from '@apex/rest';
import { ALL_OPERATIONS, createTaskService } from '@apex/tasks';
import { target, type Section, type SectionResult } from './support/section';
import { startStack } from './support/stack';
import { round, summarize } from './support/stats';

/** Ten steps across two apps: taps by text, checks, swipes, a button, and the way back. */
const TEN_STEPS = `
name: Ten steps
app: Settings
steps:
  - tap: General
  - tap: About
  - assert_visible: { label: Model Name }
  - tap: { label: General, role: button }
  - tap: { label: Settings, role: button }
  - swipe: up
  - swipe: down
  - press: home
  - tap: Notes
  - assert_visible: Start typing your note
`;

export const flowsSection: Section = {
  name: 'flows',
  description: 'a 10-step flow through REST (POST /flows/run → the task ends) on the virtual iPhone',
  async run({ quick, log }): Promise<SectionResult> {
    const stack = await startStack(1);
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'apex-bench-flows-'));
    const tasks = createTaskService({ context: stack.ctx, dataDir, env: {} });
    const api = await startRestApi({ ...stack.ctx, tasks } as typeof stack.ctx, { port: 0, operations: ALL_OPERATIONS, mcp: false, logger: createRestLogger({ level: 'silent' }) });
    const runs = quick ? 2 : 10;
    const times: number[] = [];
    const actions: number[] = [];
    try {
      for (let i = 0; i < runs; i++) {
        stack.phones[0]?.phone.pressButton('home');
        const started = performance.now();
        const answer = await fetch(`${api.url}/flows/run`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ yaml: TEN_STEPS }) });
        const { taskId } = (await answer.json()) as { taskId: string };
        const task = await tasks.whenSettled(taskId);
        const ms = performance.now() - started;
        if (task.status !== 'succeeded') throw new Error(`the flow ${task.status}: ${task.error?.message ?? ''}`);
        times.push(ms);
        actions.push(task.steps.length);
        log(`  run ${i + 1}: ${ms.toFixed(0)} ms, ${task.steps.length} actions`);
      }
    } finally {
      await api.close();
      await tasks.close();
      await stack.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
    const s = summarize(times);
    return {
      title: 'A 10-step flow through REST on the virtual iPhone',
      columns: ['runs', 'actions', 'p50 ms', 'p95 ms', 'min ms'],
      rows: [{ runs, actions: actions[0] ?? 0, 'p50 ms': round(s.p50, 0), 'p95 ms': round(s.p95, 0), 'min ms': round(Math.min(...times), 0) }],
      targets: [target('10-step flow through REST, p50', '< 2,000 ms', s.p50, 'ms', s.p50 < 2_000)],
      notes: [
        'Ten steps (two checks, eight actions) plus launching the app; each action waits for the screen to settle (two equal observations) and keeps a step screenshot.',
      ],
      data: { runs, p50Ms: round(s.p50, 0), p95Ms: round(s.p95, 0) },
    };
  },
};
