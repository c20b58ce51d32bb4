import { endStateProblems, lastMessageText, startFakeModelServer, type FakeModelServer, type RecordedRequest, type ScriptStep } from '@apex/tasks/testing';
import { exportFlow, parseFlowObject } from '@apex/tasks';
import { startTaskStack, type TaskStack } from './support';

/** The tap point of an element in describe_screen's text, e.g. `switch "Airplane Mode" = off @336,144`. */
function pointOf(role: string, label: string, request: RecordedRequest): { x: number; y: number } {
  const text = lastMessageText(request);
  const match = new RegExp(`${role} "${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^\\n@]*@(\\d+(?:\\.\\d+)?),(\\d+(?:\\.\\d+)?)`).exec(text);
  if (!match) throw new Error(`no ${role} "${label}" in what the planner sent:\n${text}`);
  return { x: Number(match[1]), y: Number(match[2]) };
}

/** A model that reads the screens Apex sends it: open Settings by its icon, flip the switch, check, finish. */
const AIRPLANE_MODE_SCRIPT: ScriptStep[] = [
  (request) => ({ text: 'Opening Settings from the home screen.', toolCalls: [{ name: 'tap', arguments: pointOf('icon', 'Settings', request) }] }),
  (request) => ({ toolCalls: [{ name: 'tap', arguments: pointOf('switch', 'Airplane Mode', request) }] }),
  (request) => {
    if (!/switch "Airplane Mode" = on/.test(lastMessageText(request))) return { toolCalls: [{ name: 'give_up', arguments: { reason: 'the switch did not turn on' } }] };
    return { toolCalls: [{ name: 'finish_task', arguments: { result: 'Airplane Mode is on.' } }] };
  },
];

/** Uses the read-only tools too: list installed apps, launch by id, find a row by text, type. */
const NOTES_SCRIPT: ScriptStep[] = [
  { toolCalls: [{ name: 'launch_app', arguments: { appId: 'com.apple.mobilenotes' } }] },
  (request) => ({ toolCalls: [{ name: 'tap', arguments: pointOf('textField', 'Start typing your note', request) }] }),
  { toolCalls: [{ name: 'input_text', arguments: { text: 'from the model' } }] },
  { toolCalls: [{ name: 'find_text', arguments: { text: 'from the model' } }] },
  (request) => {
    const found = /"from the model"/.test(lastMessageText(request));
    return { toolCalls: [{ name: found ? 'finish_task' : 'give_up', arguments: found ? { result: 'Typed it.' } : { reason: `text not found in: ${lastMessageText(request).slice(0, 600)}` } }] };
  },
];

describe.each(['openai', 'anthropic'] as const)('the %s planner drives the virtual iPhone', (wire) => {
  let server: FakeModelServer | undefined;
  let stack: TaskStack | undefined;

  async function start(script: ScriptStep[]): Promise<TaskStack> {
    server = await startFakeModelServer(wire, script);
    const env: NodeJS.ProcessEnv =
      wire === 'openai'
        ? { APEX_LLM_BASE_URL: server.baseURL, APEX_LLM_MODEL: 'fake-model', APEX_LLM_API_KEY: 'test-key', APEX_TASK_PLANNER: 'openai' }
        : { ANTHROPIC_API_KEY: 'test-key', APEX_ANTHROPIC_BASE_URL: server.baseURL, APEX_TASK_PLANNER: 'anthropic' };
    stack = await startTaskStack({ env });
    return stack;
  }

  afterEach(async () => {
    await stack?.close();
    await server?.close();
    stack = undefined;
    server = undefined;
  });

  it('turns on Airplane Mode with tool calls read from real screen descriptions', async () => {
    const { tasks, device, endState } = await start(AIRPLANE_MODE_SCRIPT);
    const task = await tasks.whenSettled((await tasks.start({ deviceId: device, goal: 'Turn on Airplane Mode' })).id);
    expect({ status: task.status, error: task.error }).toEqual({ status: 'succeeded', error: undefined });
    expect(task.planner).toBe(wire);
    expect(task.result).toBe('Airplane Mode is on.');
    expect(task.steps.map((s) => s.action.operation)).toEqual(['tap', 'tap']);
    expect(task.usage?.outputTokens).toBeGreaterThan(0);
    expect(task.usage?.inputTokens).toBeGreaterThan(0);
    expect(endStateProblems(endState(), { status: 'succeeded', appId: 'com.apple.Preferences', switches: { 'Airplane Mode': true } })).toEqual([]);
    expect(server?.remaining()).toBe(0);

    // Recorded as a flow and replayed from a reset phone with no model call (the script is used up: a call would fail).
    const exported = exportFlow(task);
    expect(exported.flow.steps).toEqual([{ tap: 'Settings' }, { tap: 'Airplane Mode' }]);
    const reset = await tasks.whenSettled((await tasks.start({ deviceId: device, goal: 'open Settings then turn off Airplane Mode', planner: 'offline' })).id);
    expect(reset.status).toBe('succeeded');
    stack?.iphone.phone.pressButton('home');
    const replayed = await tasks.whenSettled((await tasks.start({ deviceId: device, goal: 'replay', flow: await parseFlowObject(exported.flow) })).id);
    expect(replayed).toMatchObject({ status: 'succeeded', planner: 'flow' });
    expect(replayed.usage).toBeUndefined();
    expect(endStateProblems(endState(), { status: 'succeeded', appId: 'com.apple.Preferences', switches: { 'Airplane Mode': true } })).toEqual([]);
  }, 120_000);

  it('heals a flow step it cannot find (heal: agent): the model taps for that one step, and the task suggests the change', async () => {
    // The flow names the row by a description the screen does not show; the model reads the screen and picks "About".
    const { tasks, device, endState } = await start([(request) => ({ toolCalls: [{ name: 'tap', arguments: pointOf('cell', 'About', request) }] })]);
    const flow = await parseFlowObject({ name: 'Model', app: 'Settings', heal: 'agent', steps: [{ tap: 'General' }, { tap: 'Device information' }, { assert_visible: { label: 'Model Name' } }] });
    const task = await tasks.whenSettled((await tasks.start({ deviceId: device, goal: 'Run flow "Model"', flow, healPlanner: wire })).id);
    expect({ status: task.status, error: task.error }).toEqual({ status: 'succeeded', error: undefined });
    expect(task.planner).toBe('flow');
    expect(task.steps[2]?.outcome.detail).toMatch(new RegExp(`^Step 2 \\(tap\\): healed by the ${wire} planner \\("tap Device information"\\)`));
    expect(task.suggestedPatch).toEqual([{ step: 2, was: 'tap: Device information', now: 'tap: About' }]);
    expect(task.usage?.outputTokens).toBeGreaterThan(0);
    expect(JSON.stringify(server?.requests[0]?.body)).toContain('tap Device information');
    expect(server?.remaining()).toBe(0);
    expect(endStateProblems(endState(), { status: 'succeeded', appId: 'com.apple.Preferences' })).toEqual([]);
    expect(JSON.stringify(stack?.iphone.phone.snapshot())).toContain('Model Number');
  }, 120_000);

  it('types into Notes using launch_app, input_text and find_text', async () => {
    const { tasks, device, endState } = await start(NOTES_SCRIPT);
    const task = await tasks.whenSettled((await tasks.start({ deviceId: device, goal: 'write "from the model" in a note' })).id);
    expect({ status: task.status, error: task.error }).toEqual({ status: 'succeeded', error: undefined });
    expect(task.steps.map((s) => [s.action.operation, s.outcome.status])).toEqual([
      ['launch_app', 'ok'],
      ['tap', 'ok'],
      ['input_text', 'ok'],
      ['find_text', 'ok'],
    ]);
    expect(endStateProblems(endState(), { status: 'succeeded', appId: 'com.apple.mobilenotes', typed: 'from the model' })).toEqual([]);
  }, 120_000);
});
