/**
 * The offline planner on the shared goal suite (@apex/tasks/testing). Each goal runs on a fresh virtual
 * iPhone driven through the WDA driver over real HTTP, from the home screen. A goal counts as a success when
 * the task ends with the expected status (and reason) and the phone's own snapshot shows the expected end
 * state. Reported: the success rate, and per goal the steps taken and the wall time from start to the end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createTaskService } from '@apex/tasks';
import { endStateProblems, OFFLINE_GOAL_SUITE, phoneEndState, taskProblems } from '@apex/tasks/testing';
import type { Section, SectionResult } from './support/section';
import { startStack } from './support/stack';
import { mean, round, summarize } from './support/stats';

type Goal = (typeof OFFLINE_GOAL_SUITE)[number];

interface Run {
  goal: string;
  ok: boolean;
  reachable: boolean;
  steps: number;
  ms: number;
  note: string;
}

async function runGoal({ goal, expect }: Goal): Promise<Run> {
  const stack = await startStack(1);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'apex-bench-tasks-'));
  const tasks = createTaskService({ context: stack.ctx, dataDir, env: {} });
  try {
    const [iphone] = stack.phones;
    if (!iphone) throw new Error('no phone');
    const started = performance.now();
    const task = await tasks.whenSettled((await tasks.start({ deviceId: stack.ctx.hub.resolve(), goal })).id);
    const ms = performance.now() - started;
    const phone = iphone.phone;
    const problems = [...taskProblems(task, expect), ...endStateProblems(phoneEndState(phone), expect)];
    return { goal, ok: problems.length === 0, reachable: expect.status === 'succeeded', steps: task.steps.length, ms, note: problems.join('; ') };
  } finally {
    await tasks.close();
    await stack.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const offlinePlannerSection: Section = {
  name: 'planner',
  description: 'the offline planner on the goal suite: success rate, steps and time per goal',
  async run({ quick, log }): Promise<SectionResult> {
    // Goals that start from the sample app (`given`) need its builds copied and installed first: the
    // integration spec (tests/integration/src/tasks/offline-goals.spec.ts) runs those.
    const suite = OFFLINE_GOAL_SUITE.filter((g) => !g.given);
    const goals = quick ? suite.slice(0, 2) : suite;
    const runs: Run[] = [];
    for (const goal of goals) {
      const run = await runGoal(goal);
      log(`  ${run.ok ? 'ok  ' : 'FAIL'} ${run.goal} (${run.steps} steps, ${run.ms.toFixed(0)} ms)${run.note ? ` — ${run.note}` : ''}`);
      runs.push(run);
    }
    const ok = runs.filter((r) => r.ok);
    const times = summarize(runs.map((r) => r.ms));
    return {
      title: `Offline planner on ${runs.length} goal(s) of the suite`,
      columns: ['goal', 'ok', 'expected', 'steps', 'ms'],
      rows: runs.map((r) => ({ goal: r.goal, ok: r.ok, expected: r.reachable ? 'succeeded' : 'failed/refused', steps: r.steps, ms: round(r.ms, 0) })),
      targets: [],
      notes: [
        `success ${ok.length}/${runs.length} (${((100 * ok.length) / runs.length).toFixed(1)} %); mean steps ${mean(runs.map((r) => r.steps)).toFixed(2)} ` +
          `(reachable goals ${mean(runs.filter((r) => r.reachable).map((r) => r.steps)).toFixed(2)}); time per goal mean ${mean(runs.map((r) => r.ms)).toFixed(0)} ms, ` +
          `median ${times.p50.toFixed(0)} ms, p95 ${times.p95.toFixed(0)} ms.`,
      ],
      data: {
        goals: runs.length,
        succeeded: ok.length,
        successRate: round(ok.length / runs.length, 3),
        meanSteps: round(mean(runs.map((r) => r.steps)), 2),
        meanMs: round(mean(runs.map((r) => r.ms)), 0),
        medianMs: round(times.p50, 0),
      },
    };
  },
};
