import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEVICE_OPERATIONS } from '@apex/capability';
import { TaskService } from '../../service/task-service';
import { FAKE_OUTPUT_TOKENS, lastMessageText, startFakeModelServer, type FakeModelServer, type ScriptStep } from '../../testing/fake-model-server';
import { ScriptedPhone, scriptedDevices } from '../../testing/scripted-devices';
import { resolvePlannerConfig } from '../planner-config';
import { PlannerRegistry } from '../planner-registry';

type JsonObject = Record<string, unknown>;

function requestsOf(server: FakeModelServer | undefined) {
  if (!server) throw new Error('no server');
  return server.requests;
}

/** Reads `[eN] switch "LABEL" value=V at (X, Y)` from the screen text the planner sent. */
function centerOf(label: string, text: string): { x: number; y: number } {
  const match = new RegExp(`"${label}"[^\\n]* at \\((\\d+), (\\d+)\\)`).exec(text);
  if (!match) throw new Error(`"${label}" is not in the last message:\n${text}`);
  return { x: Number(match[1]), y: Number(match[2]) };
}

const AIRPLANE_SCRIPT: ScriptStep[] = [
  { text: 'Opening Settings.', toolCalls: [{ name: 'launch_app', arguments: { appId: 'com.example.settings' } }] },
  (request) => ({ toolCalls: [{ name: 'tap', arguments: centerOf('Airplane Mode', lastMessageText(request)) }] }),
  (request) => {
    if (!/"Airplane Mode" value=1/.test(lastMessageText(request))) throw new Error('the planner did not show the new screen');
    return { toolCalls: [{ name: 'finish_task', arguments: { result: 'Airplane Mode is on.' } }] };
  },
];

describe.each(['openai', 'anthropic'] as const)('the %s planner against a local fake endpoint', (wire) => {
  let dir: string;
  let server: FakeModelServer | undefined;
  let service: TaskService | undefined;
  let phone: ScriptedPhone;

  async function open(script: ScriptStep[], extraEnv: NodeJS.ProcessEnv = {}): Promise<TaskService> {
    server = await startFakeModelServer(wire, script);
    const env: NodeJS.ProcessEnv =
      wire === 'openai'
        ? { APEX_LLM_BASE_URL: server.baseURL, APEX_LLM_MODEL: 'fake-gpt', APEX_LLM_API_KEY: 'test-key', ...extraEnv }
        : { ANTHROPIC_API_KEY: 'test-key', APEX_ANTHROPIC_BASE_URL: server.baseURL, APEX_ANTHROPIC_MODEL: 'fake-claude', ...extraEnv };
    service = new TaskService({
      dataDir: dir,
      devices: scriptedDevices({ phone: phone }),
      planners: new PlannerRegistry(resolvePlannerConfig(env), DEVICE_OPERATIONS),
      agent: { settlePollMs: 1 },
    });
    return service;
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), `apex-llm-${wire}-`));
    phone = new ScriptedPhone();
  });
  afterEach(async () => {
    await service?.close();
    await server?.close();
    service = undefined;
    server = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('plans with tool calls over the catalog operations and records token usage', async () => {
    const tasks = await open(AIRPLANE_SCRIPT);
    const done = await tasks.whenSettled(tasks.start({ deviceId: 'phone', goal: 'Turn on Airplane Mode', planner: wire }).id);
    expect(done).toMatchObject({ status: 'succeeded', planner: wire, result: 'Airplane Mode is on.' });
    expect(phone.state.switches['Airplane Mode']).toBe(true);
    expect(done.steps.map((s) => s.action)).toEqual([
      { operation: 'launch_app', arguments: { appId: 'com.example.settings' } },
      { operation: 'tap', arguments: { x: 340, y: 150 } },
    ]);
    const requests = server?.requests ?? [];
    expect(requests).toHaveLength(3);
    expect(done.usage).toEqual({
      inputTokens: expect.any(Number),
      outputTokens: 3 * FAKE_OUTPUT_TOKENS,
    });
    expect(done.usage?.inputTokens).toBeGreaterThan(100);

    const first = requests[0].body;
    expect(first['model']).toBe(wire === 'openai' ? 'fake-gpt' : 'fake-claude');
    type ToolEntry = { name?: string; input_schema?: JsonObject; function?: { name: string; parameters: JsonObject } };
    const tools = first['tools'] as ToolEntry[];
    const nameOf = (t: ToolEntry) => (wire === 'openai' ? t.function?.name : t.name);
    const names = tools.map(nameOf);
    expect(names).toEqual(expect.arrayContaining(['tap', 'swipe', 'input_text', 'launch_app', 'finish_task', 'give_up']));
    // Each step offers what it needs (agent-tools.spec): not the screen it is sent anyway, nor the whole catalog.
    expect(names).not.toContain('describe_screen');
    expect(names).not.toContain('pinch');
    expect(names).not.toContain('list_devices');
    expect(names).not.toContain('take_screenshot');
    // Issue 33: a step's tool definitions under 1,500 tokens, estimated as characters / 4, in the wire format.
    for (const request of requests) expect(JSON.stringify(request.body['tools']).length / 4).toBeLessThan(1_500);
    const tap = tools.find((t) => nameOf(t) === 'tap');
    const schema = (wire === 'openai' ? tap?.function?.parameters : tap?.input_schema) as JsonObject;
    // A tap takes a ref or a point: neither is required by the schema (the operation asks for exactly one).
    expect(schema).toMatchObject({ type: 'object', properties: { ref: { type: 'string' }, x: { type: 'number' }, y: { type: 'number' } } });
    expect(schema['required']).toBeUndefined();
    expect(schema['properties']).not.toHaveProperty('device');
    expect(lastMessageText(requests[0])).toContain('Goal: Turn on Airplane Mode');
  });

  it('is told to act by ref; taps by ref, and each action answers the screen after it (no describe_screen asked)', async () => {
    const refOf = (label: string, text: string) => {
      const match = new RegExp(`\\[(e\\d+)\\] switch "${label}"`).exec(text);
      if (!match) throw new Error(`"${label}" is not in the last message:\n${text}`);
      return match[1];
    };
    const tasks = await open([
      { toolCalls: [{ name: 'launch_app', arguments: { appId: 'com.example.settings' } }] },
      (request) => ({ toolCalls: [{ name: 'tap', arguments: { ref: refOf('Airplane Mode', lastMessageText(request)) } }] }),
      (request) => {
        const text = lastMessageText(request);
        if (!/"Airplane Mode" value=1/.test(text)) throw new Error('the planner did not show the new screen');
        // The screen after the action is shown once, as "The screen now".
        expect(text.split('Airplane Mode" value=1')).toHaveLength(2);
        return { toolCalls: [{ name: 'finish_task', arguments: { result: 'Airplane Mode is on.' } }] };
      },
    ]);
    const done = await tasks.whenSettled(tasks.start({ deviceId: 'phone', goal: 'Turn on Airplane Mode', planner: wire }).id);
    expect(done.status).toBe('succeeded');
    expect(done.steps.map((s) => [s.action, s.target])).toEqual([
      [{ operation: 'launch_app', arguments: { appId: 'com.example.settings' } }, undefined],
      [{ operation: 'tap', arguments: { ref: 'e1' } }, { text: 'Airplane Mode' }],
    ]);
    expect(phone.state.switches['Airplane Mode']).toBe(true);
    expect(phone.log.filter((l) => l.operation === 'describe_screen')).toHaveLength(1);
    const system = wire === 'openai' ? (requestsOf(server)[0].body['messages'] as Array<{ content: string }>)[0].content : String(requestsOf(server)[0].body['system']);
    expect(system).toMatch(/by ref/);
    expect(system).toMatch(/no describe_screen needed/);
  });

  it('feeds an operation error back to the model, which recovers', async () => {
    const tasks = await open([
      { toolCalls: [{ name: 'launch_app', arguments: { appId: 'com.example.nope' } }] },
      (request) => {
        expect(lastMessageText(request)).toMatch(/app_not_found/);
        return { toolCalls: [{ name: 'launch_app', arguments: { appId: 'com.example.notes' } }] };
      },
      { toolCalls: [{ name: 'finish_task', arguments: { result: 'Notes is open.' } }] },
    ]);
    const done = await tasks.whenSettled(tasks.start({ deviceId: 'phone', goal: 'open notes', planner: wire }).id);
    expect(done.status).toBe('succeeded');
    expect(done.steps.map((s) => s.outcome.status)).toEqual(['error', 'ok']);
    expect(done.steps[0].outcome.code).toBe('app_not_found');
  });

  it('offers each request the tools of its step: hide_keyboard once the keyboard is up', async () => {
    const tasks = await open([
      { toolCalls: [{ name: 'launch_app', arguments: { appId: 'com.example.notes' } }] },
      { toolCalls: [{ name: 'tap', arguments: { x: 195, y: 200 } }] },
      { toolCalls: [{ name: 'finish_task', arguments: { result: 'The note is open for typing.' } }] },
    ]);
    const done = await tasks.whenSettled(tasks.start({ deviceId: 'phone', goal: 'Start a note', planner: wire }).id);
    expect(done.status).toBe('succeeded');
    const offered = requestsOf(server).map((request) =>
      (request.body['tools'] as { name?: string; function?: { name: string } }[]).map((t) => (wire === 'openai' ? t.function?.name : t.name)),
    );
    expect(offered).toHaveLength(3);
    expect(offered[0]).not.toContain('hide_keyboard');
    expect(offered[1]).not.toContain('hide_keyboard');
    expect(offered[2]).toContain('hide_keyboard');
  });

  it('tells the model to change approach on a loop, then fails with reason loop', async () => {
    const same = { toolCalls: [{ name: 'tap', arguments: { x: 5, y: 5 } }] };
    const tasks = await open([same, same, same, same, same]);
    const done = await tasks.whenSettled(tasks.start({ deviceId: 'phone', goal: 'do something', planner: wire }).id);
    expect(done.status).toBe('failed');
    expect(done.error?.reason).toBe('loop');
    expect(done.steps).toHaveLength(2);
    expect(lastMessageText(requestsOf(server)[3])).toMatch(/twice on this same screen/);
  });

  it('records give_up as infeasible', async () => {
    const tasks = await open([{ toolCalls: [{ name: 'give_up', arguments: { reason: 'There is no flight app on this phone.' } }] }]);
    const done = await tasks.whenSettled(tasks.start({ deviceId: 'phone', goal: 'book a flight', planner: wire }).id);
    expect(done.error).toMatchObject({ reason: 'infeasible', message: 'There is no flight app on this phone.' });
  });

  it('fails cleanly when the endpoint refuses the request', async () => {
    const tasks = await open([{ failWith: 401 }], wire === 'openai' ? { APEX_LLM_API_KEY: 'wrong-key' } : { ANTHROPIC_API_KEY: 'wrong-key' });
    const done = await tasks.whenSettled(tasks.start({ deviceId: 'phone', goal: 'open notes', planner: wire }).id);
    expect(done.status).toBe('failed');
    expect(done.error?.reason).toBe('planner_error');
    expect(done.error?.message).toBe(`The planner failed: The ${wire} model endpoint answered HTTP 401: check the API key.`);
  });

  it('cancels while the model is thinking', async () => {
    const tasks = await open([{ delayMs: 5_000, toolCalls: [{ name: 'press_button', arguments: { button: 'home' } }] }]);
    const task = tasks.start({ deviceId: 'phone', goal: 'go home', planner: wire });
    for (let i = 0; i < 400 && requestsOf(server).length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    tasks.cancel(task.id);
    const done = await tasks.whenSettled(task.id);
    expect(done.status).toBe('cancelled');
    expect(done.steps.map((s) => s.action.operation)).toEqual(['cancel_task']);
    expect(phone.log.some((l) => l.operation === 'press_button')).toBe(false);
  });
});
