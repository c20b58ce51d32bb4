import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { endStateProblems } from '@apex/tasks/testing';
import { call, DEVICE, startRestHarness, type RestHarness } from '../rest/harness';
import { until } from './support';

const FINAL = ['succeeded', 'failed', 'cancelled'];

/** The task routes and tools as `apex serve` serves them: REST over real HTTP, MCP at /mcp with the SDK client. */
describe('agent tasks over REST and MCP', () => {
  let h: RestHarness;
  const phone = () => {
    const embedded = h.runtime.embedded;
    if (!embedded) throw new Error('no embedded phone');
    return embedded;
  };

  beforeEach(async () => {
    h = await startRestHarness();
  });
  afterEach(async () => {
    phone().faults.reset();
    await h.close();
  });

  async function settled(taskId: string): Promise<Record<string, unknown>> {
    let body: Record<string, unknown> = {};
    for (let i = 0; i < 600 && !FINAL.includes(String(body['status'])); i++) {
      const answer = await call(h.url, 'GET', `/task/${taskId}`);
      expect(answer.status).toBe(200);
      body = answer.body;
      if (!FINAL.includes(String(body['status']))) await new Promise((r) => setTimeout(r, 100));
    }
    return body;
  }

  it('POST /agent/task → 202, GET /task/{id} until done, GET /tasks filters, and the phone really changed', async () => {
    const started = await call(h.url, 'POST', '/agent/task', { body: { goal: 'turn on Airplane Mode', device: DEVICE, maxSteps: 10 } });
    expect(started.status).toBe(202);
    expect(started.body).toEqual({ taskId: expect.any(String), status: 'queued' });
    const taskId = started.body['taskId'] as string;

    const task = await settled(taskId);
    expect(task).toMatchObject({ id: taskId, device: DEVICE, goal: 'turn on Airplane Mode', status: 'succeeded', planner: 'offline', maxSteps: 10 });
    expect((task['steps'] as unknown[]).length).toBeGreaterThan(0);
    expect(endStateProblems({ appId: phone().phone.activeApp().bundleId, root: phone().phone.snapshot() }, { status: 'succeeded', switches: { 'Airplane Mode': true } })).toEqual([]);

    const listed = await call(h.url, 'GET', `/tasks?status=succeeded&device=${DEVICE}`);
    expect(listed.status).toBe(200);
    expect(listed.body['tasks']).toEqual([expect.objectContaining({ id: taskId, device: DEVICE })]);
    expect((await call(h.url, 'GET', '/tasks?device=iphone-other')).body).toEqual({ tasks: [] });
    expect((await call(h.url, 'GET', '/tasks?status=queued')).body).toEqual({ tasks: [] });
    expect((await call(h.url, 'GET', '/tasks?status=sideways')).status).toBe(400);

    const again = await call(h.url, 'POST', `/task/${taskId}/cancel`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ taskId, status: 'succeeded', cancelRequested: false });
  }, 120_000);

  it('still accepts the deprecated deviceId in the POST /agent/task body and the GET /tasks query', async () => {
    const started = await call(h.url, 'POST', '/agent/task', { body: { goal: 'go home', deviceId: DEVICE } });
    expect(started.status).toBe(202);
    const taskId = started.body['taskId'] as string;
    expect(await settled(taskId)).toMatchObject({ id: taskId, device: DEVICE });
    expect((await call(h.url, 'GET', `/tasks?deviceId=${DEVICE}`)).body).toEqual({ tasks: [expect.objectContaining({ id: taskId })] });
    expect((await call(h.url, 'GET', '/tasks?deviceId=iphone-other')).body).toEqual({ tasks: [] });
    const both = await call(h.url, 'GET', `/tasks?device=${DEVICE}&deviceId=${DEVICE}`);
    expect(both.status).toBe(400);
    expect(both.body['code']).toBe('invalid_argument');
  }, 120_000);

  it('POST /task/{id}/cancel stops a running task at its next step', async () => {
    phone().faults.setLatency(250);
    const started = await call(h.url, 'POST', '/agent/task', { body: { goal: 'open Settings, tap General, tap About, go back, go back, go home' } });
    const taskId = started.body['taskId'] as string;
    await until(async () => (await h.runtime.tasks.get(taskId)).steps.length >= 1, 'the first step', 60_000);
    const cancel = await call(h.url, 'POST', `/task/${taskId}/cancel`);
    expect(cancel.status).toBe(200);
    expect(cancel.body).toMatchObject({ taskId, cancelRequested: true });
    const task = await settled(taskId);
    expect(task['status']).toBe('cancelled');
    const steps = task['steps'] as Array<{ action: { operation: string }; outcome: { status: string } }>;
    expect(steps[steps.length - 1]).toMatchObject({ action: { operation: 'cancel_task' }, outcome: { status: 'cancelled' } });
  }, 120_000);

  it.each([
    ['an empty goal', { goal: '' }, 400, 'invalid_argument', 'goal'],
    ['a 10,000-character goal', { goal: 'g'.repeat(10_000) }, 400, 'invalid_argument', 'goal'],
    ['an unknown device', { goal: 'go home', device: 'iphone-nope' }, 404, 'device_not_found', undefined],
    ['maxSteps 0', { goal: 'go home', maxSteps: 0 }, 400, 'invalid_argument', 'maxSteps'],
    ['maxSteps 10^9', { goal: 'go home', maxSteps: 1e9 }, 400, 'invalid_argument', 'maxSteps'],
    ['an unknown planner', { goal: 'go home', planner: 'magic' }, 400, 'invalid_argument', 'planner'],
    ['a too long device id', { goal: 'go home', device: 'd'.repeat(500) }, 400, 'invalid_argument', 'device'],
    ['both device and its deprecated name deviceId', { goal: 'go home', device: DEVICE, deviceId: DEVICE }, 400, 'invalid_argument', 'deviceId'],
    ['a missing goal', {}, 400, 'invalid_argument', 'goal'],
  ])('POST /agent/task with %s is a 4xx problem and creates nothing', async (_what, body, status, code, field) => {
    const answer = await call(h.url, 'POST', '/agent/task', { body });
    expect(answer.status).toBe(status);
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(answer.body['code']).toBe(code);
    if (field) expect((answer.body['errors'] as Array<{ path: string }>).map((e) => e.path)).toContain(field);
    expect((await call(h.url, 'GET', '/tasks')).body).toEqual({ tasks: [] });
  });

  it('unknown task ids are task_not_found problems', async () => {
    for (const [method, path] of [
      ['GET', '/task/no-such-task'],
      ['POST', '/task/no-such-task/cancel'],
    ] as const) {
      const answer = await call(h.url, method, path);
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ code: 'task_not_found', status: 404 });
    }
  });

  it('documents the task routes in the OpenAPI document', async () => {
    const doc = (await call(h.url, 'GET', '/openapi.json')).body as Record<string, Record<string, Record<string, Record<string, unknown>>>>;
    const start = doc['paths']['/agent/task']['post'];
    expect(Object.keys(start['responses'] as object)).toContain('202');
    const body = (start['requestBody'] as { content: Record<string, { schema: { properties: object } }> }).content['application/json'].schema;
    expect(Object.keys(body.properties).sort()).toEqual(['device', 'deviceId', 'goal', 'maxSteps', 'planner', 'record']);
    expect((body.properties as Record<string, { deprecated?: boolean }>)['deviceId']?.deprecated).toBe(true);
    expect((body.properties as Record<string, { deprecated?: boolean }>)['device']?.deprecated).toBeUndefined();
    const listParams = doc['paths']['/tasks']['get']['parameters'] as unknown as Array<{ name: string; deprecated?: boolean }>;
    expect(listParams.find((p) => p.name === 'deviceId')?.deprecated).toBe(true);
    expect(doc['paths']['/task/{id}']['get']).toBeDefined();
    expect(doc['paths']['/tasks']['get']).toBeDefined();
    expect(doc['paths']['/task/{id}/cancel']['post']).toBeDefined();
  });

  it('MCP at /mcp lists the task tools and runs a task with start_task and get_task', async () => {
    const client = new Client({ name: 'tasks-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`)));
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['start_task', 'get_task', 'list_tasks', 'cancel_task', 'tap']));
      const started = (await client.callTool({ name: 'start_task', arguments: { goal: 'open Notes' } })) as CallToolResult;
      expect(started.isError).toBeFalsy();
      const taskId = (started.structuredContent as { taskId: string }).taskId;
      let status = '';
      for (let i = 0; i < 600 && !FINAL.includes(status); i++) {
        const got = (await client.callTool({ name: 'get_task', arguments: { taskId } })) as CallToolResult;
        status = (got.structuredContent as { status: string }).status;
        if (!FINAL.includes(status)) await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe('succeeded');
      expect(phone().phone.activeApp().bundleId).toBe('com.apple.mobilenotes');
      const missing = (await client.callTool({ name: 'cancel_task', arguments: { taskId: 'nope' } })) as CallToolResult;
      expect(missing.isError).toBe(true);
      expect(JSON.stringify(missing.content)).toMatch(/task_not_found/);
      const bad = (await client.callTool({ name: 'start_task', arguments: { goal: '', maxSteps: 0 } })) as CallToolResult;
      expect(bad.isError).toBe(true);
      expect(JSON.stringify(bad.content)).toMatch(/invalid_argument.*goal.*maxSteps/);
    } finally {
      await client.close();
    }
  }, 120_000);
});
