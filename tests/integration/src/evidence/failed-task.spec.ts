import { call, DEVICE, startRestHarness, type RestHarness } from '../rest/harness';

/**
 * A failed task keeps the device's log of its last 30 s in its error (`error.logs`), so an agent or a person
 * sees why; a task that succeeded keeps none. The embedded virtual iPhone, a flow run over REST.
 */
describe('a failed task keeps the last 30 s of the device log', () => {
  let h: RestHarness;
  beforeAll(async () => {
    h = await startRestHarness();
  });
  afterAll(() => h.close());

  it('a flow that fails after opening Camera names the launch in error.logs; GET /task/{id} shows it', async () => {
    const yaml = 'name: Missing button\napp: Camera\nsteps:\n  - tap: Take Photo\n';
    const started = await call(h.url, 'POST', '/flows/run', { body: { yaml, device: DEVICE } });
    expect(started.status).toBe(202);
    const task = await h.runtime.tasks.whenSettled(started.body['taskId'] as string);
    expect(task.status).toBe('failed');
    const logs = task.error?.logs ?? [];
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.length).toBeLessThanOrEqual(100);
    expect(logs.some((l) => /app<com\.apple\.camera>:\d+\] Launch succeeded/.test(l.message))).toBe(true);
    const finished = Date.parse(task.finishedAt as string);
    for (const line of logs) expect(Date.parse(line.time)).toBeGreaterThanOrEqual(finished - 31_000);

    const got = await call(h.url, 'GET', `/task/${task.id}`);
    expect(got.status).toBe(200);
    expect((got.body['error'] as { logs?: unknown[] }).logs).toEqual(logs);
  }, 120_000);

  it('a task that succeeds keeps no log excerpt', async () => {
    const yaml = 'name: Open Camera screen\napp: Camera\nsteps:\n  - assert_visible: No camera on a virtual phone\n';
    const started = await call(h.url, 'POST', '/flows/run', { body: { yaml, device: DEVICE } });
    const task = await h.runtime.tasks.whenSettled(started.body['taskId'] as string);
    expect(task.status).toBe('succeeded');
    expect(task.error).toBeUndefined();
  }, 120_000);
});
