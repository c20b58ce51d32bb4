import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { call, DEVICE, startRestHarness, type RestHarness } from '../rest/harness';

const EXAMPLE = readFileSync(path.resolve(__dirname, '../../../../examples/flows/settings-about.yaml'), 'utf8');
const SETTINGS = 'com.apple.Preferences';

/** Flows as `apex serve` runs them: REST `POST /flows/run` and MCP `run_flow`, each a task followed like any. */
describe('flows over REST and MCP, on the embedded virtual iPhone', () => {
  let h: RestHarness;
  const phone = () => {
    const embedded = h.runtime.embedded;
    if (!embedded) throw new Error('no embedded phone');
    return embedded.phone;
  };
  const settled = (taskId: string) => h.runtime.tasks.whenSettled(taskId);

  beforeAll(async () => {
    h = await startRestHarness();
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(() => {
    phone().terminateApp(SETTINGS);
    phone().pressButton('home');
  });

  it("POST /flows/run with the repo's flow → 202, a task that taps its way to About, no model involved", async () => {
    const started = await call(h.url, 'POST', '/flows/run', { body: { yaml: EXAMPLE, device: DEVICE } });
    expect(started.status).toBe(202);
    const task = await settled(started.body['taskId'] as string);
    expect(task).toMatchObject({ status: 'succeeded', planner: 'flow', goal: 'Run flow "About this iPhone"', result: 'Flow "About this iPhone": 5 step(s) passed.' });
    expect(task.steps.map((s) => s.action.operation)).toEqual(['launch_app', 'tap', 'tap']);
    expect(task.steps.map((s) => s.outcome.status)).toEqual(['ok', 'ok', 'ok']);
    expect(phone().activeApp().bundleId).toBe(SETTINGS);
    expect(JSON.stringify(phone().snapshot())).toContain('Model Number');
    const got = await call(h.url, 'GET', `/task/${task.id}`);
    expect(got.body).toMatchObject({ status: 'succeeded', planner: 'flow' });
  }, 120_000);

  it('MCP run_flow takes the flow as an object, with variables; get_task follows it', async () => {
    const client = new Client({ name: 'flows-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`)));
    try {
      const flow = { name: 'Notes', steps: [{ launch: '${app}' }, { assert_visible: 'Start typing your note' }] };
      const started = (await client.callTool({ name: 'run_flow', arguments: { flow, vars: { app: 'Notes' } } })) as CallToolResult;
      expect(started.isError).toBeFalsy();
      const taskId = (started.structuredContent as { taskId: string }).taskId;
      await settled(taskId);
      const got = (await client.callTool({ name: 'get_task', arguments: { taskId } })) as CallToolResult;
      expect(got.structuredContent).toMatchObject({ status: 'succeeded', steps: [expect.objectContaining({ action: { operation: 'launch_app', arguments: { name: 'Notes' } } })] });
      expect(phone().activeApp().bundleId).toBe('com.apple.mobilenotes');
      const both = (await client.callTool({ name: 'run_flow', arguments: { flow, yaml: EXAMPLE } })) as CallToolResult;
      expect([both.isError, JSON.stringify(both.content)]).toEqual([true, expect.stringMatching(/invalid_argument.*exactly one of yaml and flow/)]);
    } finally {
      await client.close();
    }
  }, 120_000);

  it('never taps something else: a selector naming several elements fails naming them', async () => {
    const started = await call(h.url, 'POST', '/flows/run', { body: { yaml: 'name: Vague\napp: Settings\nsteps:\n  - tap: { role: switch }\n' } });
    const task = await settled(started.body['taskId'] as string);
    expect(task.status).toBe('failed');
    expect(task.error).toMatchObject({ reason: 'infeasible', message: expect.stringMatching(/^Step 1 \(tap\): role switch names \d+ elements: \[0\] switch "Airplane Mode".*Add index/) });
    expect(task.steps.map((s) => s.action.operation)).toEqual(['launch_app']);
    const indexed = await call(h.url, 'POST', '/flows/run', { body: { flow: { name: 'Second switch', app: 'Settings', steps: [{ tap: { role: 'switch', index: 0 } }] } } });
    expect((await settled(indexed.body['taskId'] as string)).status).toBe('succeeded');
  }, 120_000);

  it('heals what only the pixels show (an unlabeled icon button), says so in the step log, and fails at once with heal: none', async () => {
    const yaml = 'name: Photos settings\napp: Photos\nsteps:\n  - tap: { icon: settings }\n  - assert_visible: Photos Settings\n';
    const healed = await settled((await call(h.url, 'POST', '/flows/run', { body: { yaml } })).body['taskId'] as string);
    expect(healed.status).toBe('succeeded');
    expect(healed.steps[1]?.outcome.detail).toMatch(/^Step 1 \(tap\): icon seen in the pixels at \(\d+, \d+\) \(healed: not in the tree, found in the pixels\)/);
    phone().terminateApp('com.apple.mobileslideshow');
    const strict = await settled((await call(h.url, 'POST', '/flows/run', { body: { yaml: yaml.replace('app: Photos', 'app: Photos\nheal: none') } })).body['taskId'] as string);
    expect(strict.status).toBe('failed');
    expect(strict.error).toMatchObject({ reason: 'target_not_found', message: expect.stringContaining('icon "settings" is not on the screen (not among its elements; heal: none looks no further)') });
  }, 120_000);

  it('passes when the phone puts a row above the ones it taps (a waiting update moves every Settings row down)', async () => {
    const run = async () => settled((await call(h.url, 'POST', '/flows/run', { body: { yaml: EXAMPLE } })).body['taskId'] as string);
    const plain = await run();
    phone().terminateApp(SETTINGS);
    phone().setSoftwareUpdate('iOS 17.6');
    try {
      const moved = await run();
      expect(moved).toMatchObject({ status: 'succeeded', result: 'Flow "About this iPhone": 5 step(s) passed.' });
      const tappedY = (task: typeof plain) => (task.steps[1]?.action.arguments as { y: number }).y;
      expect(tappedY(moved)).toBeGreaterThan(tappedY(plain));
      expect(moved.steps[0]?.outcome.detail).toContain('Software Update Available');
    } finally {
      phone().setSoftwareUpdate(null);
    }
  }, 120_000);

  it('taps text that exists only in the pixels (a web page in Safari) and says in the step log that it healed', async () => {
    const yaml = 'name: Docs\napp: Safari\nsteps:\n  - tap: Read the getting started guide\n  - assert_visible: Getting started\n';
    phone().terminateApp('com.apple.mobilesafari');
    const task = await settled((await call(h.url, 'POST', '/flows/run', { body: { yaml } })).body['taskId'] as string);
    expect(task).toMatchObject({ status: 'succeeded', result: 'Flow "Docs": 3 step(s) passed.' });
    expect(task.steps[0]?.observation).not.toContain('Read the getting started guide');
    expect(task.steps[1]?.outcome.detail).toMatch(/^Step 1 \(tap\): text "Read the getting started guide" seen in the pixels at \(\d+, \d+\) \(healed: not in the tree, found in the pixels\)/);
    phone().terminateApp('com.apple.mobilesafari');
  }, 120_000);

  it('with heal: none, an element that is gone fails at once naming the selector, the screen and its screenshot; nothing after it runs', async () => {
    const yaml = 'name: Update\napp: Settings\nheal: none\nsteps:\n  - tap: Software Update Available\n  - tap: General\n';
    const task = await settled((await call(h.url, 'POST', '/flows/run', { body: { yaml } })).body['taskId'] as string);
    expect(task.status).toBe('failed');
    expect(task.error).toMatchObject({
      code: 'element_not_found',
      reason: 'target_not_found',
      screenshotStep: 1,
      message: expect.stringMatching(/^Step 1 \(tap\): text "Software Update Available" is not on the screen \(not among its elements; heal: none looks no further\); it shows: .*General/),
    });
    expect(task.steps.map((s) => s.action.operation)).toEqual(['launch_app']);
    const shot = await fetch(`${h.url}/task/${task.id}/steps/1/screenshot`);
    expect([shot.status, shot.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    expect(JSON.stringify(phone().snapshot())).not.toContain('Model Name');
  }, 120_000);

  it('heal: agent hands a step it cannot find to the offline planner for one tap, goes on, and suggests the changed step', async () => {
    // Written with another phone's word for the row: neither the tree nor the pixels say "System Update".
    const yaml = 'name: Update page\napp: Settings\nheal: agent\nsteps:\n  - tap: General\n  - tap: System Update\n  - assert_visible: No Software Update settings\n';
    const started = await call(h.url, 'POST', '/flows/run', { body: { yaml, healPlanner: 'offline' } });
    const task = await settled(started.body['taskId'] as string);
    expect({ status: task.status, error: task.error }).toEqual({ status: 'succeeded', error: undefined });
    expect(task.steps.map((s) => s.action.operation)).toEqual(['launch_app', 'tap', 'tap']);
    expect(task.steps[2]?.outcome.detail).toMatch(/^Step 2 \(tap\): healed by the offline planner \("tap System Update"\)/);
    expect(task.suggestedPatch).toEqual([{ step: 2, was: 'tap: System Update', now: 'tap: Software Update' }]);
    const got = await call(h.url, 'GET', `/task/${task.id}`);
    expect(got.body['suggestedPatch']).toEqual(task.suggestedPatch);

    // A step no planner can place fails naming what the planner did instead; nothing after it runs.
    phone().terminateApp(SETTINGS);
    const lost = await settled((await call(h.url, 'POST', '/flows/run', { body: { yaml: yaml.replace('System Update', 'Quantum Flux'), healPlanner: 'offline' } })).body['taskId'] as string);
    expect(lost.status).toBe('failed');
    expect(lost.error?.message).toMatch(/^Step 2 \(tap\): text "Quantum Flux" is not on the screen \(neither among its elements nor in its pixels\); the offline planner did not heal it/);
    expect(lost.suggestedPatch).toBeUndefined();
    const refused = await call(h.url, 'POST', '/flows/run', { body: { yaml, healPlanner: 'flow' } });
    expect([refused.status, refused.body['code']]).toEqual([400, 'invalid_argument']);
  }, 120_000);

  it('runs deliberate repeats as written: five taps of one switch flip it (the repeat guard is for planners going round in circles)', async () => {
    const airplaneOn = () => /"label":"Airplane Mode"[^{}]*"value":"1"|"value":"1"[^{}]*"label":"Airplane Mode"/.test(JSON.stringify(phone().snapshot()));
    phone().launchApp(SETTINGS);
    const before = airplaneOn();
    phone().pressButton('home');
    const flow = { name: 'Five flips', app: 'Settings', steps: Array.from({ length: 5 }, () => ({ tap: { label: 'Airplane Mode', role: 'switch' } })) };
    const task = await settled((await call(h.url, 'POST', '/flows/run', { body: { flow } })).body['taskId'] as string);
    expect({ status: task.status, error: task.error }).toEqual({ status: 'succeeded', error: undefined });
    expect(task.steps.map((s) => [s.action.operation, s.outcome.status])).toEqual([['launch_app', 'ok'], ...Array.from({ length: 5 }, () => ['tap', 'ok'])]);
    expect(airplaneOn()).toBe(!before);
  }, 120_000);

  it('GET /flows/schema serves the JSON Schema for editors that the repo commits beside its example flows', async () => {
    const served = await call(h.url, 'GET', '/flows/schema');
    expect(served.status).toBe(200);
    expect(served.body).toEqual(JSON.parse(readFileSync(path.resolve(__dirname, '../../../../schemas/flow.schema.json'), 'utf8')));
    const openapi = await call(h.url, 'GET', '/openapi.json');
    expect((openapi.body['paths'] as Record<string, unknown>)['/flows/schema']).toMatchObject({ get: { operationId: 'flow_schema' } });
    expect(EXAMPLE).toMatch(/^# yaml-language-server: \$schema=\.\.\/\.\.\/schemas\/flow\.schema\.json$/m);
  }, 60_000);

  it('a bad flow is a 400 naming line and column, and no task is created', async () => {
    const before = (await call(h.url, 'GET', '/tasks')).body['tasks'] as unknown[];
    const bad = await call(h.url, 'POST', '/flows/run', { body: { yaml: 'name: Bad\nsteps:\n  - swipe: sideways\n' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'invalid_argument', detail: expect.stringContaining('line 3, column') });
    expect((await call(h.url, 'GET', '/tasks')).body['tasks']).toHaveLength(before.length);
    const planner = await call(h.url, 'POST', '/agent/task', { body: { goal: 'anything', planner: 'flow' } });
    expect([planner.status, planner.body['code']]).toEqual([400, 'invalid_argument']);
  }, 60_000);
});
