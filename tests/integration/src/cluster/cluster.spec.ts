import { eventually } from '@apex/testing';
import { expectNoDuplicateSteps, found, TestCluster, WAIT, type ApexNode, type Json } from './support';

/**
 * Three `apex serve` processes (nodes), each holding its own virtual phones, sharing one task queue in a real
 * PostgreSQL. Short leases (config `cluster`) so that a dead node's hold runs out quickly; nothing here
 * measures time: every wait is `eventually` with a generous deadline.
 */
const LEASE = { leaseMs: 2_000, renewMs: 250 };
const LONG_GOAL = Array.from({ length: 12 }, () => 'open Settings, go home').join(', ');

describe('a cluster of Apex nodes sharing one PostgreSQL task queue', () => {
  let cluster: TestCluster;

  /** The phones of each node: node-3 has two, for the failure tests. */
  const LAYOUT: Record<string, string[]> = { 'node-1': ['phone-1'], 'node-2': ['phone-2'], 'node-3': ['phone-3', 'phone-4'] };

  const startNode = (name: string): Promise<ApexNode> => cluster.startNode(name, LAYOUT[name], { cluster: LEASE });
  const node = (name: string): ApexNode => cluster.node(name);
  const task = (on: ApexNode, id: string) => cluster.task(on, id);
  const settled = (on: ApexNode, id: string) => cluster.settled(on, id);
  const startedOn = (taskId: string) => cluster.startedOn(taskId);

  async function post(on: ApexNode, device: string, goal: string): Promise<{ status: number; body: Json }> {
    return cluster.call(on.url, 'POST', '/agent/task', { device, goal, maxSteps: 60 });
  }

  beforeAll(async () => {
    cluster = await TestCluster.start({ phones: ['phone-1', 'phone-2', 'phone-3', 'phone-4'] });
    for (const name of Object.keys(LAYOUT)) await startNode(name);
    // Every node lists every phone: its own, and the others' as busy with their node.
    for (const n of cluster.nodes.values()) {
      await eventually(async () => ((await cluster.call(n.url, 'GET', '/devices')).body['devices'] as Json[]).length === 4, { ...WAIT, what: `${n.name} to see all phones` });
    }
  }, 180_000);

  afterAll(async () => {
    await cluster?.close();
  }, 60_000);

  afterEach(() => {
    for (const phone of cluster.phones.values()) phone.faults.reset();
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
      const holder = [...cluster.nodes.values()].find((n) => n.phones.includes(device))?.name;
      expect(startedOn(id)).toEqual([holder]);
      // Its page — steps and step screenshots — from every node alike.
      for (const n of cluster.nodes.values()) {
        expect(await task(n, id)).toEqual(done);
        const shot = await fetch(`${n.url}/task/${id}/steps/1/screenshot`);
        expect(shot.status).toBe(200);
        expect(shot.headers.get('content-type')).toMatch(/^image\//);
      }
    }
  }, 240_000);

  it("refuses a flow for a phone another node holds (its variables stay with the node it was posted to), and runs one posted to the holder", async () => {
    const yaml = 'name: Open Settings\napp: Settings\nsteps:\n  - tap: General\n';
    const elsewhere = await cluster.call(node('node-1').url, 'POST', '/flows/run', { device: 'phone-2', yaml });
    expect(elsewhere).toMatchObject({ status: 501, body: { code: 'unsupported_operation' } });
    const here = await cluster.call(node('node-2').url, 'POST', '/flows/run', { device: 'phone-2', yaml });
    expect(here.status).toBe(202);
    expect((await settled(node('node-3'), String(here.body['taskId']))).status).toBe('succeeded');
  }, 120_000);

  it('recovers the tasks of a node killed mid-task within a lease: a started one interrupted, an unstarted one queued again; nothing runs twice', async () => {
    const three = node('node-3');
    // phone-4: a long goal that has taken steps when the node dies. phone-3: a task stuck before its first step.
    cluster.phone('phone-4').faults.setLatency(150);
    const started = await post(node('node-1'), 'phone-4', LONG_GOAL);
    const behind = await post(node('node-2'), 'phone-4', 'open Settings then go home');
    expect([started.status, behind.status]).toEqual([202, 202]);
    const startedId = String(started.body['taskId']);
    const behindId = String(behind.body['taskId']);
    await eventually(async () => (await task(node('node-1'), startedId)).steps.length >= 2, { ...WAIT, what: 'the long task to take steps' });
    cluster.phone('phone-3').faults.setLatency(60_000);
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
    cluster.phone('phone-3').faults.reset();
    cluster.phone('phone-4').faults.reset();
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
    await cluster.postgres.stop();
    const accepted: string[] = [String(before.body['taskId'])];
    for (const n of cluster.nodes.values()) {
      const answer = await post(n, n.phones[0], 'open Settings');
      // Either refused, clearly, or accepted and then kept: never a 202 for a task that is lost.
      if (answer.status === 202) accepted.push(String(answer.body['taskId']));
      else expect(answer).toMatchObject({ status: 503, body: { code: 'unavailable' } });
    }
    expect(accepted).toHaveLength(1);
    await cluster.postgres.start();
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
