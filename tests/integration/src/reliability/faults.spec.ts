import { endStateProblems, OFFLINE_GOAL_SUITE } from '@apex/tasks/testing';
import { eventually } from '@apex/testing';
import { jsonClient, startApexOverPhones, type Answer, type ApexOverPhones } from './support';

/**
 * Device faults under a running Apex (runtime from a config file + REST), with nothing lost and a clear error
 * each time. The fourth fault of the issue, the Apex process killed mid-task and restarted with the task store
 * intact, is tests/integration/src/tasks/restart.spec.ts (a real SIGKILL of a child process).
 *
 * phone-1: offline and back during a stream of calls; phone-2: WDA restarted mid-task; phone-3: slower than
 * its (short) action timeout.
 */
const TAP = { x: 5, y: 30 };
/** A goal of several steps from the shared suite, with the end state it must reach. */
const MULTI_STEP = OFFLINE_GOAL_SUITE.find((g) => g.goal === 'open Settings, tap General, tap About, then go back');

describe('faults under a running Apex, over REST', () => {
  let apex: ApexOverPhones;
  let client: ReturnType<typeof jsonClient>;

  beforeAll(async () => {
    apex = await startApexOverPhones({ count: 3, timeouts: { 2: { actionMs: 1_000, slowActionMs: 1_000 } } });
    client = jsonClient(apex.api.url, 16);
  }, 60_000);

  afterAll(async () => {
    for (const phone of apex?.iphones ?? []) phone.faults.reset();
    client?.close();
    await apex?.close();
  }, 60_000);

  const phone = (i: number) => {
    const p = apex.iphones[i];
    if (!p) throw new Error(`no phone ${i}`);
    return p;
  };

  it(
    'offline and back during a stream of calls: each call succeeds or says device_offline; calls succeed again without a restart of Apex',
    async () => {
      const id = apex.ids[0] as string;
      const answers: { answer: Answer; phase: 'before' | 'offline' | 'after' }[] = [];
      let phase: 'before' | 'offline' | 'after' = 'before';
      let stop = false;
      let issued = 0;
      // Four clients, each calling one after the other: taps, status, the UI tree.
      const calls = [() => client.post(`/devices/${id}/tap`, TAP), () => client.get(`/devices/${id}`), () => client.get(`/devices/${id}/ui-tree?maxDepth=2`)];
      const stream = async (k: number) => {
        for (let n = k; !stop; n += 1) {
          issued += 1;
          const current = phase;
          const answer = await (calls[n % calls.length] as () => Promise<Answer>)();
          answers.push({ answer, phase: current });
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      };
      const streams = [0, 1, 2, 3].map(stream);
      const ok = (a: Answer) => a.status === 200;
      const offline = (a: Answer) => a.status === 503 && a.body.code === 'device_offline';

      await eventually(() => answers.filter((a) => ok(a.answer)).length >= 20, { timeoutMs: 30_000, what: 'successful calls before the fault' });
      await phone(0).faults.goOffline();
      phase = 'offline';
      await eventually(() => answers.filter((a) => offline(a.answer)).length >= 10, { timeoutMs: 30_000, what: 'device_offline answers' });
      await phone(0).faults.comeBack();
      phase = 'after';
      const before = answers.length;
      await eventually(() => answers.slice(before).filter((a) => a.phase === 'after' && ok(a.answer)).length >= 20, { timeoutMs: 60_000, what: 'successful calls after the phone came back' });
      stop = true;
      await Promise.all(streams);

      // Nothing lost: every call was answered, and each answer is a success or a clear device_offline.
      expect(answers).toHaveLength(issued);
      const unclear = answers.filter((a) => !ok(a.answer) && !offline(a.answer));
      expect(unclear.map((a) => a.answer)).toEqual([]);
      for (const { answer } of answers.filter((a) => offline(a.answer))) {
        expect(answer.body).toMatchObject({ retryable: true, detail: expect.stringContaining(id) });
      }
      // The last answers (after it came back) are all successes, and the device is online again.
      expect(answers.slice(-8).every((a) => ok(a.answer))).toBe(true);
      expect((await client.get(`/devices/${id}`)).body).toMatchObject({ state: 'online' });
    },
    150_000,
  );

  it(
    'WDA restarted mid-task: the task continues on a new session and reaches its goal',
    async () => {
      const id = apex.ids[1] as string;
      const iphone = phone(1);
      // A slower phone so the restart lands between steps of a task of several steps.
      iphone.faults.setLatency(150);
      if (!MULTI_STEP) throw new Error('the goal suite lost its multi-step goal');
      const started = await client.post('/agent/task', { goal: MULTI_STEP.goal, deviceId: id, maxSteps: 20 });
      expect(started.status).toBe(202);
      const taskId = started.body.taskId as string;
      const read = async () => (await client.get(`/task/${taskId}`)).body as { status: string; steps: { outcome: { status: string } }[]; error?: { code: string; reason: string; message: string } };
      await eventually(async () => (await read()).steps.length >= 1, { timeoutMs: 60_000, what: 'the first step' });
      // Each step takes several slowed device calls, so the restart lands while the task is running.
      const atRestart = await read();
      const restartsBefore = iphone.faults.state.restarts;
      iphone.faults.restart();
      iphone.faults.setLatency(0);
      expect(iphone.faults.state.restarts).toBe(restartsBefore + 1);
      expect(atRestart.status).toBe('running');
      await eventually(async () => ['succeeded', 'failed', 'cancelled'].includes((await read()).status), { timeoutMs: 120_000, what: 'the task to end' });
      const task = await read();
      // "continues or fails with a clear reason": with a session rebuilt by the driver it continues.
      if (task.status !== 'succeeded') throw new Error(`the task ended ${task.status}: ${JSON.stringify(task.error)}`);
      // It went on after the restart: later steps ran (on the session the driver rebuilt), all of them done.
      expect(task.steps.length).toBeGreaterThan(atRestart.steps.length);
      expect(task.steps.map((s) => s.outcome.status)).not.toContain('error');
      expect(endStateProblems({ appId: iphone.phone.activeApp().bundleId, root: iphone.phone.snapshot() }, MULTI_STEP.expect)).toEqual([]);
    },
    180_000,
  );

  it(
    'a device slower than its timeout: device_timeout, the device not stuck, then calls succeed once the latency is gone',
    async () => {
      const id = apex.ids[2] as string;
      const iphone = phone(2);
      expect((await client.post(`/devices/${id}/tap`, TAP)).status).toBe(200);
      iphone.faults.setLatency(5_000);
      const slow = await Promise.all([client.post(`/devices/${id}/tap`, TAP), client.post(`/devices/${id}/tap`, { x: 6, y: 30 })]);
      for (const answer of slow) {
        expect(answer.status).toBe(504);
        expect(answer.body).toMatchObject({ code: 'device_timeout', detail: expect.stringContaining(id) });
      }
      // Other phones are not held up by the slow one.
      expect((await client.post(`/devices/${apex.ids[0]}/tap`, TAP)).status).toBe(200);
      iphone.faults.setLatency(0);
      await eventually(async () => (await client.post(`/devices/${id}/tap`, TAP)).status === 200, { timeoutMs: 60_000, what: 'a tap to succeed again' });
      expect((await client.get(`/devices/${id}`)).body).toMatchObject({ id, state: 'online' });
      expect((await client.get(`/devices/${id}/ui-tree?maxDepth=1`)).status).toBe(200);
    },
    120_000,
  );
});
