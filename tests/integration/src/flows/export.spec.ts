import { parse } from 'yaml';
import { call, DEVICE, startRestHarness, type RestHarness } from '../rest/harness';

const SETTINGS = 'com.apple.Preferences';

/** A task an agent finished, recorded as a flow and replayed with no planner but the flow's. */
describe('export a finished task as a flow, then replay it', () => {
  let h: RestHarness;
  const phone = () => {
    const embedded = h.runtime.embedded;
    if (!embedded) throw new Error('no embedded phone');
    return embedded.phone;
  };
  const runTask = async (goal: string) => {
    const started = await call(h.url, 'POST', '/agent/task', { body: { goal, device: DEVICE } });
    return h.runtime.tasks.whenSettled(started.body['taskId'] as string);
  };
  /** What the Airplane Mode switch shows, read from the phone itself. */
  const airplaneMode = () => {
    const text = JSON.stringify(phone().snapshot());
    return /"value":"1"[^{}]*"label":"Airplane Mode"|"label":"Airplane Mode"[^{}]*"value":"1"/.test(text) ? 'on' : 'off';
  };

  beforeAll(async () => {
    h = await startRestHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('the offline planner turns Airplane Mode on; its flow (by labels, not points) does it again from a reset phone', async () => {
    const task = await runTask('open Settings then turn on Airplane Mode');
    expect(task.status).toBe('succeeded');
    expect(airplaneMode()).toBe('on');

    const exported = await call(h.url, 'GET', `/task/${task.id}/flow`);
    expect(exported.status).toBe(200);
    const flow = exported.body['flow'] as { steps: Record<string, unknown>[] };
    // The planner opened Settings from the home screen by its icon.
    expect(flow.steps[0]).toEqual({ tap: 'Settings' });
    // The row is its switch on describe_screen: its label alone names it.
    expect(flow.steps).toContainEqual({ tap: 'Airplane Mode' });
    expect(JSON.stringify(flow.steps)).not.toMatch(/"point"/);
    expect(exported.body['skipped']).toEqual([]);
    expect(parse(exported.body['yaml'] as string)).toEqual(flow);

    // Back to where the task began: Airplane Mode off, Settings closed.
    expect((await runTask('open Settings then turn off Airplane Mode')).status).toBe('succeeded');
    phone().terminateApp(SETTINGS);
    expect(airplaneMode()).toBe('off');

    const replay = await call(h.url, 'POST', '/flows/run', { body: { yaml: exported.body['yaml'] } });
    expect(replay.status).toBe(202);
    const replayed = await h.runtime.tasks.whenSettled(replay.body['taskId'] as string);
    expect(replayed).toMatchObject({ status: 'succeeded', planner: 'flow' });
    expect(replayed.usage).toBeUndefined();
    phone().launchApp(SETTINGS);
    expect(airplaneMode()).toBe('on');
  }, 180_000);

  it('typed text the log redacted becomes a variable to give at replay; an unknown task is task_not_found', async () => {
    const task = await runTask('open Notes then type hello world');
    expect(task.status).toBe('succeeded');
    const exported = await call(h.url, 'GET', `/task/${task.id}/flow`);
    expect(exported.body['variables']).toEqual(['text1']);
    expect(exported.body['yaml']).toContain('${text1}');
    // (the goal, in the flow's name, is the caller's own words; only the step log redacts)
    expect(JSON.stringify((exported.body['flow'] as { steps: unknown[] }).steps)).not.toContain('hello world');
    phone().terminateApp('com.apple.mobilenotes');
    const replay = await call(h.url, 'POST', '/flows/run', { body: { yaml: exported.body['yaml'], vars: { text1: 'typed again' } } });
    expect((await h.runtime.tasks.whenSettled(replay.body['taskId'] as string)).status).toBe('succeeded');
    expect(JSON.stringify(phone().snapshot())).toContain('typed again');
    const without = await call(h.url, 'POST', '/flows/run', { body: { yaml: exported.body['yaml'] } });
    expect([without.status, without.body['detail']]).toEqual([400, expect.stringContaining('text1')]);
    expect((await call(h.url, 'GET', '/task/no-such-task/flow')).status).toBe(404);
  }, 180_000);
});
