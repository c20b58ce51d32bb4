import { eventually } from '@apex/testing';
import { expectNoDuplicateSteps, found, TestCluster, WAIT, type Json } from './support';

/**
 * A phone two nodes can reach (both configs list it, not `shared`): the one that holds it runs its tasks;
 * when that node is killed its lease lapses and the other takes the phone over, runs what waited for it, and
 * keeps it when the first comes back. Real `apex serve` processes, one real PostgreSQL.
 */
const TOKEN = 'takeover-secret-4b1e';
const LEASE = { leaseMs: 3_000, renewMs: 250 };
const SETTINGS = 'com.apple.Preferences';
const LONG_GOAL = Array.from({ length: 12 }, () => 'open Settings, go home').join(', ');

describe('a phone two nodes reach is taken over by the other when its node dies', () => {
  let cluster: TestCluster;

  beforeAll(async () => {
    cluster = await TestCluster.start({ phones: ['both'], token: TOKEN });
    // B, started first, holds the phone; A (listAll) lists it with B; C has no phone (a listAll front): tasks are posted there too.
    await cluster.startNode('B', ['both'], { cluster: LEASE });
    await cluster.startNode('A', ['both'], { cluster: { ...LEASE, listAll: true } });
    await cluster.startNode('C', [], { cluster: { ...LEASE, listAll: true } });
    await eventually(async () => (await cluster.listed(cluster.node('A'))).some((d) => d['id'] === 'both' && d['node'] !== undefined), {
      ...WAIT,
      what: 'A to list the phone with B',
    });
  }, 180_000);

  afterAll(async () => {
    await cluster?.close();
  }, 60_000);

  const onA = async (): Promise<Json | undefined> => (await cluster.listed(cluster.node('A'))).find((d) => d['id'] === 'both');

  it("takes the phone over after B is SIGKILLed: B's started task interrupted, its queued one run once on A, new tasks run on A", async () => {
    const [a, b, c] = ['A', 'B', 'C'].map((name) => cluster.node(name));
    expect(await onA()).toMatchObject({ state: 'online', node: { url: b.url } });
    const phone = cluster.phone('both');

    // A long task B has taken steps of when it dies, and one queued behind it.
    phone.faults.setLatency(150);
    const started = await cluster.call(c.url, 'POST', '/agent/task', { device: 'both', goal: LONG_GOAL, maxSteps: 60 });
    const behind = await cluster.call(a.url, 'POST', '/agent/task', { device: 'both', goal: 'open Settings then go home', maxSteps: 60 });
    expect([started.status, behind.status]).toEqual([202, 202]);
    const startedId = String(started.body['taskId']);
    const behindId = String(behind.body['taskId']);
    await eventually(async () => (await cluster.task(c, startedId)).steps.length >= 2, { ...WAIT, what: 'the long task to take steps on B' });
    expect(cluster.startedOn(startedId)).toEqual(['B']);

    b.run.child.kill('SIGKILL');
    await b.run.exited;
    phone.faults.reset();

    // A takes the phone: listed as its own (no node), online.
    const taken = await found(async () => {
      const seen = await onA();
      return seen && seen['node'] === undefined && seen['state'] === 'online' ? seen : undefined;
    }, 'A to take the phone over');
    expect(taken).not.toHaveProperty('owner');

    // B's started task is interrupted (none of its steps again); the one behind it runs once, on A.
    const interrupted = await cluster.settled(c, startedId);
    expect(interrupted).toMatchObject({ status: 'failed', error: { reason: 'interrupted' } });
    expectNoDuplicateSteps(interrupted.steps);
    const ranBehind = await cluster.settled(c, behindId);
    expect(ranBehind.status).toBe('succeeded');
    expectNoDuplicateSteps(ranBehind.steps);
    expect(cluster.startedOn(behindId)).toEqual(['A']);

    // A task posted now, on C, runs on A: the phone ends where the goal says.
    phone.phone.goHome();
    const next = await cluster.call(c.url, 'POST', '/agent/task', { device: 'both', goal: 'open Settings', maxSteps: 20 });
    expect(next.status).toBe(202);
    const nextId = String(next.body['taskId']);
    const done = await cluster.settled(a, nextId);
    expect(done.status).toBe('succeeded');
    expectNoDuplicateSteps(done.steps);
    expect(cluster.startedOn(nextId)).toEqual(['A']);
    expect(phone.phone.activeApp().bundleId).toBe(SETTINGS);
    expect(await cluster.task(c, startedId)).toEqual(interrupted);
  }, 240_000);

  it('keeps the phone on A when B comes back: B lists it busy with A, and a task posted to B runs on A', async () => {
    const a = cluster.node('A');
    const b = await cluster.startNode('B', ['both'], { cluster: LEASE });
    // B tried to take it at start and found A's lease live.
    await b.run.stderrLine(/another process holds the device/);
    const onB = (await cluster.listed(b)).find((d) => d['id'] === 'both');
    expect(onB).toMatchObject({ state: 'busy', owner: { pid: a.run.child.pid } });

    cluster.phone('both').phone.goHome();
    const posted = await cluster.call(b.url, 'POST', '/agent/task', { device: 'both', goal: 'open Settings', maxSteps: 20 });
    expect(posted.status).toBe(202);
    const id = String(posted.body['taskId']);
    const done = await cluster.settled(b, id);
    expect(done.status).toBe('succeeded');
    expect(cluster.startedOn(id)).toEqual(['A']);
    expect(cluster.phone('both').phone.activeApp().bundleId).toBe(SETTINGS);
    // Still A's after all that: local on A, busy with A on B.
    expect(await onA()).toMatchObject({ state: 'online' });
    expect((await onA())?.['node']).toBeUndefined();
    expect((await cluster.listed(b)).find((d) => d['id'] === 'both')).toMatchObject({ state: 'busy', owner: { pid: a.run.child.pid } });
  }, 180_000);
});
