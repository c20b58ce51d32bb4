import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startVirtualIPhone, type VirtualIPhone } from '@apex/virtual-device';
import { eventually } from '@apex/testing';
import { startTestPostgres, type TestPostgres } from '@apex/testing/postgres';
import { requestJson, spawnApex, type SpawnedApex } from '../shutdown/spawned';

/**
 * Three `apex serve` processes (nodes), each holding its own virtual phones, sharing one task queue in a real
 * PostgreSQL. Short leases (config `cluster`) so that a dead node's hold runs out quickly; nothing here
 * measures time: every wait is `eventually` with a generous deadline.
 */
const LEASE = { leaseMs: 2_000, renewMs: 250 };
const WAIT = { timeoutMs: 90_000, intervalMs: 100 };
const LONG_GOAL = Array.from({ length: 12 }, () => 'open Settings, go home').join(', ');

interface Node {
  name: string;
  phones: string[];
  config: string;
  run: SpawnedApex;
  url: string;
}

type Json = Record<string, unknown>;

/** `eventually` for a value: resolves with the first defined one. */
async function found<T>(look: () => Promise<T | undefined>, what: string): Promise<T> {
  return (await eventually(look, { ...WAIT, what })) as T;
}
interface StepJson {
  index: number;
}

describe('a cluster of Apex nodes sharing one PostgreSQL task queue', () => {
  let dir: string;
  let postgres: TestPostgres;
  let databaseUrl: string;
  const phones = new Map<string, VirtualIPhone>();
  const nodes = new Map<string, Node>();
  const runs: SpawnedApex[] = [];

  /** The phones of each node: node-3 has two, for the failure tests. */
  const LAYOUT: Record<string, string[]> = { 'node-1': ['phone-1'], 'node-2': ['phone-2'], 'node-3': ['phone-3', 'phone-4'] };

  async function startNode(name: string): Promise<Node> {
    const config = join(dir, `${name}.json`);
    const devices = LAYOUT[name].map((id) => ({ id, driver: 'wda', url: phones.get(id)?.url }));
    writeFileSync(config, JSON.stringify({ devices, tasks: { store: { postgres: databaseUrl } }, cluster: LEASE }));
    const run = spawnApex(['serve', '--port', '0', '--config', config], { logLevel: 'info', dataDir: mkdtempSync(join(dir, `${name}-data-`)) });
    runs.push(run);
    const [, url] = await run.stdoutLine(/REST API\s+(http:\/\/127\.0\.0\.1:\d+)/);
    const node = { name, phones: LAYOUT[name], config, run, url };
    nodes.set(name, node);
    return node;
  }

  const node = (name: string): Node => {
    const found = nodes.get(name);
    if (!found) throw new Error(`no ${name}`);
    return found;
  };

  async function post(on: Node, device: string, goal: string): Promise<{ status: number; body: Json }> {
    return requestJson(on.url, 'POST', '/agent/task', { device, goal, maxSteps: 60 });
  }

  async function task(on: Node, id: string): Promise<Json & { status: string; steps: StepJson[] }> {
    const answer = await requestJson(on.url, 'GET', `/task/${id}`);
    if (answer.status !== 200) throw new Error(`GET /task/${id} on ${on.name}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body as Json & { status: string; steps: StepJson[] };
  }

  /** The task once it has ended, as `on` answers for it (a timeout names the state it was stuck in). */
  async function settled(on: Node, id: string): Promise<Json & { status: string; steps: StepJson[] }> {
    return found(async () => {
      const seen = await task(on, id);
      if (['succeeded', 'failed', 'cancelled'].includes(seen.status)) return seen;
      throw new Error(`still ${seen.status} after ${seen.steps.length} step(s)`);
    }, `task ${id} to end`);
  }

  /** The node whose log says it started the task ("task started" with its id). */
  function startedOn(taskId: string): string[] {
    return [...nodes.values()].filter((n) => n.run.stderr().split('\n').some((line) => line.includes('"task started"') && line.includes(taskId))).map((n) => n.name);
  }

  /** Step indexes are 0, 1, 2, … each once: no step was recorded twice. */
  function expectNoDuplicateSteps(steps: StepJson[]): void {
    expect(steps.map((s) => s.index)).toEqual(steps.map((_, i) => i));
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'apex-cluster-'));
    postgres = await startTestPostgres();
    databaseUrl = await postgres.createDatabase();
    for (const id of ['phone-1', 'phone-2', 'phone-3', 'phone-4']) phones.set(id, await startVirtualIPhone({ port: 0 }));
    for (const name of Object.keys(LAYOUT)) await startNode(name);
    // Every node lists every phone: its own, and the others' as busy with their node.
    for (const n of nodes.values()) {
      await eventually(async () => ((await requestJson(n.url, 'GET', '/devices')).body['devices'] as Json[]).length === 4, { ...WAIT, what: `${n.name} to see all phones` });
    }
  }, 180_000);

  afterAll(async () => {
    for (const run of runs) {
      if (run.child.exitCode === null && run.child.signalCode === null) {
        run.child.kill('SIGTERM');
        await run.exited;
      }
    }
    for (const phone of phones.values()) await phone.close();
    await postgres?.close();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  afterEach(() => {
    for (const phone of phones.values()) phone.faults.reset();
  });

  it('runs tasks posted round-robin on the node that holds each phone, and every node answers for every task', async () => {
    const names = ['node-1', 'node-2', 'node-3'];
    const posted: Array<{ id: string; device: string }> = [];
    for (let i = 0; i < 6; i += 1) {
      const device = ['phone-1', 'phone-2', 'phone-3'][(i + 1) % 3];
      const answer = await post(node(names[i % 3]), device, 'open Settings then go home');
      expect(answer.status).toBe(202);
      posted.push({ id: String(answer.body['taskId']), device });
    }
    for (const { id, device } of posted) {
      const done = await settled(node('node-1'), id);
      expect(done).toMatchObject({ status: 'succeeded', device });
      expectNoDuplicateSteps(done.steps);
      // Run by the node that holds its phone, and by no other.
      const holder = [...nodes.values()].find((n) => n.phones.includes(device))?.name;
      expect(startedOn(id)).toEqual([holder]);
      // Its page — steps and step screenshots — from every node alike.
      for (const n of nodes.values()) {
        expect(await task(n, id)).toEqual(done);
        const shot = await fetch(`${n.url}/task/${id}/steps/1/screenshot`);
        expect(shot.status).toBe(200);
        expect(shot.headers.get('content-type')).toMatch(/^image\//);
      }
    }
  }, 240_000);

  it("refuses a flow for a phone another node holds (its variables stay with the node it was posted to), and runs one posted to the holder", async () => {
    const yaml = 'name: Open Settings\napp: Settings\nsteps:\n  - tap: General\n';
    const elsewhere = await requestJson(node('node-1').url, 'POST', '/flows/run', { device: 'phone-2', yaml });
    expect(elsewhere).toMatchObject({ status: 501, body: { code: 'unsupported_operation' } });
    const here = await requestJson(node('node-2').url, 'POST', '/flows/run', { device: 'phone-2', yaml });
    expect(here.status).toBe(202);
    expect((await settled(node('node-3'), String(here.body['taskId']))).status).toBe('succeeded');
  }, 120_000);

  it('recovers the tasks of a node killed mid-task within a lease: a started one interrupted, an unstarted one queued again; nothing runs twice', async () => {
    const three = node('node-3');
    // phone-4: a long goal that has taken steps when the node dies. phone-3: a task stuck before its first step.
    phones.get('phone-4')?.faults.setLatency(150);
    const started = await post(node('node-1'), 'phone-4', LONG_GOAL);
    const behind = await post(node('node-2'), 'phone-4', 'open Settings then go home');
    expect([started.status, behind.status]).toEqual([202, 202]);
    const startedId = String(started.body['taskId']);
    const behindId = String(behind.body['taskId']);
    await eventually(async () => (await task(node('node-1'), startedId)).steps.length >= 2, { ...WAIT, what: 'the long task to take steps' });
    phones.get('phone-3')?.faults.setLatency(60_000);
    const stuck = await post(node('node-2'), 'phone-3', 'open Settings');
    const stuckId = String(stuck.body['taskId']);
    await eventually(async () => (await task(node('node-1'), stuckId)).status === 'running', { ...WAIT, what: 'the stuck task to start' });
    expect((await task(node('node-1'), stuckId)).steps).toEqual([]);

    three.run.child.kill('SIGKILL');
    await three.run.exited;
    const stepsAtDeath = (await task(node('node-1'), startedId)).steps.length;

    // Another node recovers them once node-3's lease runs out.
    const interrupted = await found(async () => {
      const seen = await task(node('node-2'), startedId);
      return seen.status === 'failed' ? seen : undefined;
    }, 'the started task to be marked interrupted');
    expect(interrupted).toMatchObject({ error: { reason: 'interrupted' } });
    expectNoDuplicateSteps(interrupted.steps);
    expect(interrupted.steps.length).toBeGreaterThanOrEqual(stepsAtDeath);
    await eventually(async () => (await task(node('node-1'), stuckId)).status === 'queued', { ...WAIT, what: 'the unstarted task to be queued again' });
    expect((await task(node('node-1'), behindId)).status).toBe('queued');

    // node-3 comes back (a new process): it takes its phones again and runs what waited for them, once.
    phones.get('phone-3')?.faults.reset();
    phones.get('phone-4')?.faults.reset();
    await startNode('node-3');
    for (const id of [stuckId, behindId]) {
      const done = await settled(node('node-2'), id);
      expect(done.status).toBe('succeeded');
      expectNoDuplicateSteps(done.steps);
    }
    // The interrupted task stays as it was: none of its steps ran again.
    expect(await task(node('node-1'), startedId)).toEqual(interrupted);
  }, 300_000);

  it('refuses tasks with `unavailable` while PostgreSQL is down, never a lost 202, and goes on once it is back', async () => {
    const before = await post(node('node-1'), 'phone-2', 'open Settings then go home');
    expect(before.status).toBe(202);
    await postgres.stop();
    const accepted: string[] = [String(before.body['taskId'])];
    for (const n of nodes.values()) {
      const answer = await post(n, n.phones[0], 'open Settings');
      // Either refused, clearly, or accepted and then kept: never a 202 for a task that is lost.
      if (answer.status === 202) accepted.push(String(answer.body['taskId']));
      else expect(answer).toMatchObject({ status: 503, body: { code: 'unavailable' } });
    }
    expect(accepted).toHaveLength(1);
    await postgres.start();
    // The nodes reconnect on their own; a task posted now is taken.
    const after = await found(async () => {
      const answer = await post(node('node-3'), 'phone-1', 'open Settings then go home');
      return answer.status === 202 ? answer : undefined;
    }, 'the nodes to take tasks again');
    accepted.push(String(after.body['taskId']));
    for (const id of accepted) {
      const done = await settled(node('node-2'), id);
      expect({ status: done.status, error: done['error'] }).toEqual({ status: 'succeeded', error: undefined });
    }
  }, 300_000);
});
