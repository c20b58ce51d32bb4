import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApexError } from '@apex/errors';
import { eventually } from '@apex/testing';
import { DEVICE_OPERATIONS } from '@apex/capability';
import { PlannerRegistry } from '../planners/planner-registry';
import { DATABASE_FILE, SqliteTaskStore } from '../store/sqlite-task-store';
import { ScriptedPhone, scriptedDevices } from '../testing/scripted-devices';
import { TaskService, type TaskServiceOptions } from './task-service';
import { exportFlow } from '../flows/export-flow';
import { parseFlowObject } from '../flows/parse-flow';

function deferred() {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => (release = resolve));
  return { promise, release };
}

/** How long to wait for the service's background work (a deadline, not a timing check). */
const WAIT = { timeoutMs: 10_000, intervalMs: 5 };

describe('TaskService', () => {
  let dir: string;
  let phones: Record<string, ScriptedPhone>;
  let service: TaskService | undefined;

  function open(extra: Partial<TaskServiceOptions> = {}): TaskService {
    service = new TaskService({
      dataDir: dir,
      devices: scriptedDevices(phones),
      planners: new PlannerRegistry({}, DEVICE_OPERATIONS),
      agent: { settlePollMs: 1 },
      ...extra,
    });
    return service;
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'apex-task-service-'));
    phones = { 'phone-a': new ScriptedPhone(), 'phone-b': new ScriptedPhone() };
  });
  afterEach(async () => {
    await service?.close();
    service = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs an offline goal to success, step by step, with screenshots kept', async () => {
    const tasks = open();
    const created = (await tasks.start({ deviceId: 'phone-a', goal: 'turn on Airplane Mode then go home' }));
    expect(created.status).toBe('queued');
    const done = await tasks.whenSettled(created.id);
    expect(done.status).toBe('succeeded');
    expect(phones['phone-a'].state.switches['Airplane Mode']).toBe(true);
    expect(phones['phone-a'].state.app).toBe('home');
    expect(done.steps.map((s) => s.action.operation)).toEqual(['launch_app', 'tap', 'press_button']);
    expect(done.steps.every((s) => s.outcome.status === 'ok')).toBe(true);
    expect(done.result).toMatch(/Turned on Airplane Mode/);
    expect(done.startedAt && done.finishedAt).toBeTruthy();
    const ref = done.steps[1].screenshotRef;
    expect(ref).toBeDefined();
    expect(existsSync(tasks.screenshotPath(done.id, ref as string))).toBe(true);
  });

  it('reads a step screenshot by task and 1-based step number, and says which ones are not there', async () => {
    const tasks = open({ screenshots: { perTask: 1 } });
    const done = await tasks.whenSettled((await tasks.start({ deviceId: 'phone-a', goal: 'turn on Airplane Mode then go home' })).id);
    const kept = done.steps.filter((step) => step.screenshotRef);
    expect(kept).toHaveLength(1);
    const last = kept[0];
    const image = await tasks.stepScreenshot(done.id, last.index + 1);
    expect(image.data.equals(readFileSync(tasks.screenshotPath(done.id, last.screenshotRef as string)))).toBe(true);
    expect(image.mimeType).toBe('image/jpeg');
    // Step 2 took a screenshot that retention (one per task) has removed since.
    const evicted = done.steps.find((step) => step.index < last.index && step.action.operation === 'tap');
    expect(evicted).toBeDefined();
    await expect(tasks.stepScreenshot(done.id, (evicted?.index ?? 0) + 1)).rejects.toMatchObject({ code: 'task_not_found', message: expect.stringMatching(/no longer kept/) });
    await expect(tasks.stepScreenshot(done.id, done.steps.length + 1)).rejects.toMatchObject({ code: 'task_not_found', message: expect.stringMatching(/has no step/) });
    await expect(tasks.stepScreenshot('nope', 1)).rejects.toMatchObject({ code: 'task_not_found' });
    await expect(tasks.stepScreenshot('../../etc/passwd', 1)).rejects.toMatchObject({ code: 'invalid_argument' });
  });

  it('waits for a slow screen transition to settle instead of acting on the old screen', async () => {
    const tasks = open({ agent: { settlePollMs: 5 } });
    phones['phone-a'].lagObservations = 3;
    const done = await tasks.whenSettled((await tasks.start({ deviceId: 'phone-a', goal: 'turn off Wi-Fi' })).id);
    expect(done.status).toBe('succeeded');
    expect(done.steps.map((s) => [s.action.operation, s.outcome.status])).toEqual([
      ['launch_app', 'ok'],
      ['tap', 'ok'],
    ]);
    expect(phones['phone-a'].state.switches['Wi-Fi']).toBe(false);

    // The launch needed a wait (Settings showed only on a later look): its export waits for what appeared, and replays.
    expect(done.steps[0]?.outcome.waitedFor).toBe('Airplane Mode');
    const exported = exportFlow(done).flow;
    expect(exported.steps.slice(0, 2)).toEqual([{ launch: 'com.example.settings' }, { wait_for: { text: 'Airplane Mode' } }]);
    phones['phone-a'].state.app = 'home';
    phones['phone-a'].state.switches['Wi-Fi'] = true;
    const replayed = await tasks.whenSettled((await tasks.start({ deviceId: 'phone-a', goal: 'replay', flow: await parseFlowObject(exported) })).id);
    expect({ status: replayed.status, error: replayed.error }).toEqual({ status: 'succeeded', error: undefined });
    expect(phones['phone-a'].state.switches['Wi-Fi']).toBe(false);
  });

  it('rides out one failed observation, and fails with device_error when the screen stays unreadable', async () => {
    const tasks = open();
    phones['phone-a'].failObservations = 1;
    const ok = await tasks.whenSettled((await tasks.start({ deviceId: 'phone-a', goal: 'open Notes' })).id);
    expect(ok.status).toBe('succeeded');
    phones['phone-a'].failObservations = 2;
    const failed = await tasks.whenSettled((await tasks.start({ deviceId: 'phone-a', goal: 'go home' })).id);
    expect(failed.error).toMatchObject({ reason: 'device_error', code: 'device_timeout' });
    expect(failed.error?.message).toMatch(/Could not read the screen/);
  });

  it('runs one task per device at a time, the others in order, other devices in parallel', async () => {
    const tasks = open();
    const gate = deferred();
    phones['phone-a'].gate = gate.promise;
    const first = (await tasks.start({ deviceId: 'phone-a', goal: 'open Settings' }));
    const second = (await tasks.start({ deviceId: 'phone-a', goal: 'go home' }));
    const other = (await tasks.start({ deviceId: 'phone-b', goal: 'open Notes' }));
    await eventually(async () => (await tasks.get(first.id)).status === 'running', { ...WAIT, what: 'the first task to run' });
    expect((await tasks.whenSettled(other.id)).status).toBe('succeeded');
    expect((await tasks.get(second.id)).status).toBe('queued');
    expect((await tasks.list({ deviceId: 'phone-a', status: 'queued' })).map((t) => t.id)).toEqual([second.id]);
    gate.release();
    const [a, b] = await Promise.all([tasks.whenSettled(first.id), tasks.whenSettled(second.id)]);
    expect([a.status, b.status]).toEqual(['succeeded', 'succeeded']);
    expect(Date.parse(b.startedAt as string)).toBeGreaterThanOrEqual(Date.parse(a.finishedAt as string));
  });

  it('cancels a running task at the next step boundary and records it', async () => {
    const tasks = open();
    const gate = deferred();
    phones['phone-a'].gate = gate.promise;
    const task = (await tasks.start({ deviceId: 'phone-a', goal: 'open Settings then turn off Wi-Fi' }));
    await eventually(async () => phones['phone-a'].log.some((l) => l.operation === 'launch_app'), { ...WAIT, what: 'the first action' });
    expect((await tasks.cancel(task.id)).status).toBe('running');
    gate.release();
    const done = await tasks.whenSettled(task.id);
    expect(done.status).toBe('cancelled');
    // The action in flight finished; nothing ran after it.
    expect(done.steps.map((s) => [s.action.operation, s.outcome.status])).toEqual([
      ['launch_app', 'ok'],
      ['cancel_task', 'cancelled'],
    ]);
    expect(phones['phone-a'].state.switches['Wi-Fi']).toBe(true);
    expect((await tasks.cancel(task.id)).status).toBe('cancelled');
  });

  it('cancels a queued task at once; it never runs', async () => {
    const tasks = open();
    const gate = deferred();
    phones['phone-a'].gate = gate.promise;
    const first = (await tasks.start({ deviceId: 'phone-a', goal: 'open Settings' }));
    const queued = (await tasks.start({ deviceId: 'phone-a', goal: 'open Notes' }));
    const cancelled = (await tasks.cancel(queued.id));
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.finishedAt).toBeDefined();
    gate.release();
    await tasks.whenSettled(first.id);
    expect(phones['phone-a'].log.filter((l) => l.operation === 'launch_app')).toHaveLength(1);
    expect((await tasks.get(queued.id)).steps).toEqual([]);
  });

  it('stops at the step limit', async () => {
    const tasks = open();
    const task = (await tasks.start({ deviceId: 'phone-a', goal: 'open Settings then turn off Wi-Fi then go home', maxSteps: 2 }));
    const done = await tasks.whenSettled(task.id);
    expect(done.status).toBe('failed');
    expect(done.error?.reason).toBe('step_limit');
    expect(done.steps).toHaveLength(2);
  });

  it('stops at the wall-clock timeout', async () => {
    const tasks = open();
    phones['phone-a'].actionDelayMs = 700;
    const task = (await tasks.start({ deviceId: 'phone-a', goal: 'open Settings then go home then open Notes', timeoutMs: 1_000 }));
    const done = await tasks.whenSettled(task.id);
    expect(done.status).toBe('failed');
    expect(done.error?.reason).toBe('timeout');
    expect(done.steps.length).toBeLessThan(3);
  });

  it('fails a goal beyond the offline planner as infeasible, before acting', async () => {
    const tasks = open();
    const done = await tasks.whenSettled((await tasks.start({ deviceId: 'phone-a', goal: 'order a pizza to my office' })).id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ reason: 'infeasible' });
    expect(done.error?.message).toMatch(/order a pizza to my office/);
    expect(done.steps).toEqual([]);
    // Reads only: the screen it decided on, and the log excerpt a failed task keeps.
    expect(phones['phone-a'].log.filter((l) => l.operation !== 'describe_screen' && l.operation !== 'get_logs')).toEqual([]);
  });

  it.each([
    ['an unknown planner', { deviceId: 'phone-a', goal: 'go home', planner: 'gpt-magic' }, 'invalid_argument', /offline/],
    ['an unconfigured planner', { deviceId: 'phone-a', goal: 'go home', planner: 'anthropic' }, 'invalid_argument', /not configured.*offline/],
  ])('rejects %s and creates nothing (bounds and device: the operation pipeline, see task-operations.spec)', async (_what, input, code, message) => {
    const tasks = open();
    let thrown: unknown;
    try {
      (await tasks.start(input as never));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApexError);
    expect((thrown as ApexError).code).toBe(code);
    expect((thrown as ApexError).message).toMatch(message);
    expect((await tasks.list())).toEqual([]);
  });

  it('deletes finished tasks past their retention (count, then age on an injected clock), with their steps and screenshots; never an unfinished one', async () => {
    let clock = Date.parse('2026-03-01T00:00:00.000Z');
    const tasks = open({ lease: { now: () => clock, leaseMs: 10 * 365 * 86_400_000, renewMs: 60_000 }, retention: { maxAgeMs: 86_400_000, maxFinished: 2 } });
    const finished: string[] = [];
    for (let i = 0; i < 3; i++) {
      clock += 1_000;
      finished.push((await tasks.whenSettled((await tasks.start({ deviceId: 'phone-a', goal: 'turn on Airplane Mode then go home' })).id)).id);
    }
    const screenshotsOf = (taskId: string) => existsSync(join(dir, 'screenshots', taskId));
    // Count: three finished, two kept — the oldest went with its screenshots as the third ended.
    expect((await tasks.list()).map((t) => t.id)).toEqual([finished[2], finished[1]]);
    await expect(tasks.get(finished[0] as string)).rejects.toMatchObject({ code: 'task_not_found' });
    expect(finished.map(screenshotsOf)).toEqual([false, true, true]);

    // Age: a day after they finished, the finished ones go; a running and a queued one stay, whatever their age.
    const gate = deferred();
    phones['phone-b'].gate = gate.promise;
    const running = (await tasks.start({ deviceId: 'phone-b', goal: 'open Settings' }));
    const queued = (await tasks.start({ deviceId: 'phone-b', goal: 'open Notes' }));
    await eventually(async () => (await tasks.get(running.id)).status === 'running', { ...WAIT, what: 'the task to run' });
    clock += 86_400_000 - 500;
    expect((await tasks.prune())).toEqual([finished[1]]);
    clock += 86_400_000;
    expect((await tasks.prune())).toEqual([finished[2]]);
    expect((await tasks.list()).map((t) => [t.id, t.status])).toEqual([
      [queued.id, 'queued'],
      [running.id, 'running'],
    ]);
    expect(finished.map(screenshotsOf)).toEqual([false, false, false]);
    gate.release();
    await tasks.whenSettled(queued.id);
  });

  it('fails a task whose device went away while it waited, as a device error, without acting', async () => {
    const tasks = open();
    const task = (await tasks.start({ deviceId: 'phone-a', goal: 'turn on Airplane Mode' }));
    const gone = phones['phone-a'];
    delete phones['phone-a'];
    const done = await tasks.whenSettled(task.id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ reason: 'device_error', code: 'device_not_found' });
    expect(done.error?.message).toMatch(/phone-a/);
    expect(gone.log).toEqual([]);
  });

  it('records a task that asks (record: true) from before its first step to its end, and links the recording; unasked, it records nothing', async () => {
    const calls: string[] = [];
    const recorder = {
      start: async (deviceId: string, maxSeconds: number) => {
        calls.push(`start ${deviceId} ${maxSeconds} (steps so far: ${phones[deviceId].state.app})`);
      },
      stop: async (deviceId: string) => {
        calls.push(`stop ${deviceId}`);
        return { id: 'rec-00000000000000000001', url: '/recordings/rec-00000000000000000001', seconds: 2 };
      },
    };
    const tasks = open({ recorder });
    const recorded = await tasks.whenSettled((await tasks.start({ deviceId: 'phone-a', goal: 'turn on Airplane Mode then go home', record: true, timeoutMs: 60_000 })).id);
    expect(recorded.status).toBe('succeeded');
    expect(calls).toEqual([`start phone-a 60 (steps so far: home)`, 'stop phone-a']);
    expect(recorded.recording).toEqual({ id: 'rec-00000000000000000001', url: '/recordings/rec-00000000000000000001', seconds: 2 });
    expect(recorded.error).toBeUndefined();
    const unrecorded = await tasks.whenSettled((await tasks.start({ deviceId: 'phone-a', goal: 'turn on Airplane Mode then go home' })).id);
    expect(unrecorded.recording).toBeUndefined();
    expect(calls).toHaveLength(2);
  });

  it('a task whose recording cannot start runs unrecorded; without a recorder, record: true is refused and creates nothing', async () => {
    const failing = open({
      recorder: {
        start: () => Promise.reject(new ApexError('device_busy', 'already recorded')),
        stop: () => Promise.reject(new Error('never started')),
      },
    });
    const done = await failing.whenSettled((await failing.start({ deviceId: 'phone-a', goal: 'turn on Airplane Mode then go home', record: true })).id);
    expect(done.status).toBe('succeeded');
    expect(done.recording).toBeUndefined();
    await failing.close();
    const plain = open();
    await expect(plain.start({ deviceId: 'phone-a', goal: 'go home', record: true })).rejects.toMatchObject({ code: 'unsupported_operation' });
    expect(await plain.list()).toHaveLength(1);
  });

  it('answers task_not_found for unknown ids', async () => {
    const tasks = open();
    for (const call of [() => tasks.get('nope'), () => tasks.cancel('nope')]) {
      await expect(call()).rejects.toMatchObject({ code: 'task_not_found' });
    }
  });

  it('after a crash marks running tasks interrupted and runs the queued ones', async () => {
    // Written by a process that is gone: it holds no lease.
    const store = new SqliteTaskStore(dir);
    const base = { deviceId: 'phone-a', planner: 'offline', maxSteps: 20, timeoutMs: 60_000, createdAt: new Date().toISOString(), steps: [] };
    (await store.insert({ ...base, id: 'was-running', goal: 'open Settings', status: 'running', startedAt: new Date().toISOString() }));
    (await store.insert({ ...base, id: 'was-queued', goal: 'open Notes', status: 'queued' }));
    (await store.close());

    const tasks = open();
    expect((await tasks.get('was-running'))).toMatchObject({ status: 'failed', error: { reason: 'interrupted' } });
    const resumed = await tasks.whenSettled('was-queued');
    expect(resumed.status).toBe('succeeded');
    expect(phones['phone-a'].state.app).toBe('notes');
  });

  describe('while it runs, a peer whose lease runs out', () => {
    const lease = { leaseMs: 3_000, renewMs: 1_000 };
    const base = { deviceId: 'phone-a', planner: 'offline', maxSteps: 20, timeoutMs: 60_000, steps: [] };
    /** Another process on the same data dir; its pid is this live one's, as with a zombie or a reused pid. */
    const peerStore = () =>
      new SqliteTaskStore(dir, { lease: { ...lease, instance: { id: 'peer', pid: process.pid, host: hostname(), since: new Date().toISOString() } } });
    afterEach(() => jest.useRealTimers());

    it('has its running task failed (interrupted) the moment its lease expires, not before', async () => {
      jest.useFakeTimers({ now: Date.parse('2026-01-01T00:00:00.000Z'), doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
      const peer = peerStore();
      (await peer.renewLease());
      (await peer.insert({ ...base, id: 'peer-running', goal: 'open Settings', status: 'queued', createdAt: new Date().toISOString() }));
      (await peer.startRun('peer-running', new Date().toISOString()));
      const tasks = open({ lease });
      for (let i = 0; i < 5; i += 1) {
        await jest.advanceTimersByTimeAsync(1_000);
        (await peer.renewLease());
        expect((await tasks.get('peer-running')).status).toBe('running');
      }
      (await peer.close());
      // The peer stops renewing (it died): its lease ends 3 s after its last renewal.
      await jest.advanceTimersByTimeAsync(2_999);
      expect((await tasks.get('peer-running')).status).toBe('running');
      await jest.advanceTimersByTimeAsync(2);
      expect((await tasks.get('peer-running'))).toMatchObject({ status: 'failed', error: { reason: 'interrupted' } });
    });

    it('has its queued tasks adopted and run here, without a restart', async () => {
      const peer = new SqliteTaskStore(dir, {
        lease: { leaseMs: 200, renewMs: 50, instance: { id: 'peer', pid: process.pid, host: hostname(), since: new Date().toISOString() } },
      });
      (await peer.renewLease());
      (await peer.insert({ ...base, id: 'peer-queued', goal: 'open Notes', status: 'queued', createdAt: new Date().toISOString() }));
      (await peer.close());
      const tasks = open({ lease: { leaseMs: 200, renewMs: 50 } });
      const done = await tasks.whenSettled('peer-queued');
      expect(done.status).toBe('succeeded');
      expect(phones['phone-a'].state.app).toBe('notes');
    });
  });

  it('shares a data dir with another live process: each runs its own tasks, and a cancel reaches across', async () => {
    const mine = open();
    const otherPhones = { 'phone-a': new ScriptedPhone() };
    const other = new TaskService({
      dataDir: dir,
      devices: scriptedDevices(otherPhones),
      planners: new PlannerRegistry({}, DEVICE_OPERATIONS),
      agent: { settlePollMs: 1 },
    });
    try {
      const gate = deferred();
      phones['phone-a'].gate = gate.promise;
      const running = (await mine.start({ deviceId: 'phone-a', goal: 'open Settings then turn off Wi-Fi' }));
      const waiting = (await mine.start({ deviceId: 'phone-a', goal: 'open Notes' }));
      await eventually(async () => phones['phone-a'].log.some((l) => l.operation === 'launch_app'), { ...WAIT, what: 'the first action' });
      // The other process sees the tasks, runs none of them, and can cancel them.
      expect((await other.get(running.id)).status).toBe('running');
      expect((await other.cancel(waiting.id)).status).toBe('cancelled');
      (await other.cancel(running.id));
      gate.release();
      const done = await mine.whenSettled(running.id);
      expect(done.status).toBe('cancelled');
      expect(done.steps.map((s) => s.action.operation)).toEqual(['launch_app', 'cancel_task']);
      // Closing waits for everything this service still runs: after it, nothing more can reach the phone.
      await mine.close();
      expect(phones['phone-a'].state.app).toBe('settings');
      expect(otherPhones['phone-a'].log.filter((l) => l.operation !== 'describe_screen')).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('refuses a start beyond the queue limit of a device with device_busy naming the limit; other devices are unaffected', async () => {
    const tasks = open({ maxQueuedPerDevice: 2 });
    const gate = deferred();
    phones['phone-a'].gate = gate.promise;
    const running = (await tasks.start({ deviceId: 'phone-a', goal: 'open Settings' }));
    await eventually(async () => (await tasks.get(running.id)).status === 'running', { ...WAIT, what: 'the first task to run' });
    const queued = [(await tasks.start({ deviceId: 'phone-a', goal: 'go home' })), (await tasks.start({ deviceId: 'phone-a', goal: 'open Notes' }))];
    const before = (await tasks.list()).length;
    const refused = await (async () => {
      try {
        (await tasks.start({ deviceId: 'phone-a', goal: 'go home' }));
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refused).toBeInstanceOf(ApexError);
    expect(refused).toMatchObject({ code: 'device_busy', retryable: true });
    expect((refused as ApexError).message).toBe('Device phone-a already has 2 queued tasks, the most it takes.');
    expect((await tasks.list())).toHaveLength(before);
    expect((await tasks.start({ deviceId: 'phone-b', goal: 'open Notes' })).status).toBe('queued');
    // Room again once one leaves the queue.
    (await tasks.cancel(queued[0].id));
    const next = (await tasks.start({ deviceId: 'phone-a', goal: 'go home' }));
    expect(next.status).toBe('queued');
    gate.release();
    expect((await tasks.whenSettled(next.id)).status).toBe('succeeded');
  });

  it('keeps typed text out of the stored steps, the result and the database file; the goal is kept', async () => {
    const tasks = open();
    const secret = 'hunter2';
    const done = await tasks.whenSettled((await tasks.start({ deviceId: 'phone-a', goal: `type ${secret} in Notes` })).id);
    expect(done.status).toBe('succeeded');
    expect(phones['phone-a'].state.noteText).toBe(secret);
    expect(done.goal).toBe(`type ${secret} in Notes`);
    const typing = done.steps.find((s) => s.action.operation === 'input_text');
    expect(typing?.action.arguments).toEqual({ text: '•••', length: 7 });
    const { goal: _goal, ...rest } = done;
    expect(JSON.stringify(rest)).not.toContain(secret);
    await tasks.close();
    service = undefined;
    const bytes = ['', '-wal'].map((suffix) => (existsSync(join(dir, `${DATABASE_FILE}${suffix}`)) ? readFileSync(join(dir, `${DATABASE_FILE}${suffix}`)) : Buffer.alloc(0)));
    const occurrences = bytes.map((b) => b.toString('latin1').split(secret).length - 1).reduce((a, b) => a + b, 0);
    // Only the goal holds it (once per row version in the WAL, at most twice: queued, then running).
    const goalCopies = bytes.map((b) => b.toString('latin1').split(`type ${secret} in Notes`).length - 1).reduce((a, b) => a + b, 0);
    expect(occurrences).toBe(goalCopies);
  });

  it('keeps typed text as typed when told to (keepTypedText)', async () => {
    const tasks = open({ keepTypedText: true });
    const done = await tasks.whenSettled((await tasks.start({ deviceId: 'phone-a', goal: 'type hunter2 in Notes' })).id);
    expect(done.steps.find((s) => s.action.operation === 'input_text')?.action.arguments).toEqual({ text: 'hunter2' });
    expect(done.result).toContain('hunter2');
  });

  it('on close, stops a running task at its next boundary as interrupted and keeps queued ones', async () => {
    const tasks = open();
    const gate = deferred();
    phones['phone-a'].gate = gate.promise;
    const running = (await tasks.start({ deviceId: 'phone-a', goal: 'open Settings then go home' }));
    const queued = (await tasks.start({ deviceId: 'phone-a', goal: 'open Notes' }));
    await eventually(async () => (await tasks.get(running.id)).status === 'running', { ...WAIT, what: 'the task to run' });
    const closing = tasks.close();
    gate.release();
    await closing;
    service = undefined;
    const store = new SqliteTaskStore(dir);
    expect((await store.get(running.id))).toMatchObject({ status: 'failed', error: { reason: 'interrupted' } });
    expect((await store.get(queued.id))?.status).toBe('queued');
    (await store.close());
  });
});
