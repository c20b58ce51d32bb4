/**
 * Benchmark (not a test): the offline planner on the goal suite.
 *
 *   npx tsx libs/tasks/bench/offline-planner.bench.ts [rounds]
 *
 * Each goal runs on a fresh virtual iPhone driven through the WDA driver over real HTTP (the stack the runtime
 * builds for its embedded phone, assembled here because the runtime itself depends on this lib), from the home
 * screen. A goal counts as a success when the task ends with the
 * expected status (and reason) and the phone's own snapshot shows the expected end state. Reported: the
 * success rate, and per goal the steps taken and the wall time from start_task to the final status.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DeviceHub } from '@apex/capability';
import { createWdaDriver } from '@apex/driver-wda';
import { Perception } from '@apex/perception';
import { createTaskService } from '@apex/tasks';
import { endStateProblems, OFFLINE_GOAL_SUITE } from '@apex/tasks/testing';
import { startVirtualIPhone } from '@apex/virtual-device';

const ROUNDS = Number(process.argv[2] ?? 1);
const DEVICE = 'iphone-virtual';

interface Run {
  goal: string;
  ok: boolean;
  steps: number;
  ms: number;
  note: string;
}

async function runGoal(goal: string, expect: (typeof OFFLINE_GOAL_SUITE)[number]['expect']): Promise<Run> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'apex-bench-tasks-'));
  const iphone = await startVirtualIPhone({ port: 0 });
  const hub = new DeviceHub({ backgroundProbes: false });
  hub.register({ id: DEVICE, name: 'Virtual iPhone', driver: createWdaDriver({ deviceId: DEVICE, url: iphone.url }) });
  const perception = new Perception(hub);
  const tasks = createTaskService({ context: { hub, perception }, dataDir, env: {} });
  try {
    const started = performance.now();
    const task = await tasks.whenSettled(tasks.start({ goal }).id);
    const ms = performance.now() - started;
    const phone = iphone.phone;
    const problems = [
      ...(task.status !== expect.status ? [`status ${task.status}`] : []),
      ...(expect.reason && task.error?.reason !== expect.reason ? [`reason ${task.error?.reason}`] : []),
      ...endStateProblems({ appId: phone.activeApp().bundleId, root: phone.snapshot() }, expect),
    ];
    return { goal, ok: problems.length === 0, steps: task.steps.length, ms, note: problems.join('; ') || (task.result ?? task.error?.message ?? '') };
  } finally {
    await tasks.close();
    await perception.close();
    await hub.close();
    await iphone.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
}

async function main(): Promise<void> {
  const runs: Run[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const { goal, expect } of OFFLINE_GOAL_SUITE) runs.push(await runGoal(goal, expect));
  }
  const pad = Math.max(...runs.map((r) => r.goal.length));
  process.stdout.write(`Offline planner on ${OFFLINE_GOAL_SUITE.length} goals × ${ROUNDS} round(s) — ${os.cpus().length} CPU(s), load ${os.loadavg()[0].toFixed(2)}\n\n`);
  for (const r of runs) {
    process.stdout.write(`${r.ok ? 'ok  ' : 'FAIL'} ${r.goal.padEnd(pad)}  ${String(r.steps).padStart(2)} steps  ${r.ms.toFixed(0).padStart(6)} ms  ${r.ok ? '' : r.note}\n`);
  }
  const succeeded = runs.filter((r) => r.ok);
  const reached = runs.filter((r) => r.ok && OFFLINE_GOAL_SUITE.find((g) => g.goal === r.goal)?.expect.status === 'succeeded');
  const sorted = runs.map((r) => r.ms).sort((a, b) => a - b);
  process.stdout.write(
    `\nsuccess rate ${succeeded.length}/${runs.length} (${((100 * succeeded.length) / runs.length).toFixed(1)} %)` +
      `\nmean steps per goal ${mean(runs.map((r) => r.steps)).toFixed(2)} (reachable goals: ${mean(reached.map((r) => r.steps)).toFixed(2)})` +
      `\nmean time per goal ${mean(runs.map((r) => r.ms)).toFixed(0)} ms, median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms, max ${sorted[sorted.length - 1].toFixed(0)} ms\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
