/**
 * The agent with refs + observe (issue 16 points 6 and 7) against the way before, in one run, on virtual iPhones
 * over real HTTP (each goal on a fresh phone; the two ways alternate goal by goal):
 *   - the offline planner on the goal suite: device requests per goal (HTTP requests reaching the phone, counted
 *     by a pass-through in front of it), catalog operations the agent ran per goal (describe_screen among them);
 *   - the OpenAI-compatible planner against the fake model server, scripted to read the screens it is sent (the
 *     old way taps centres, the new way refs): device requests, operations per goal, model input tokens per step;
 *   - a scripted MCP client (the SDK's real Client, in-memory transport) playing three goals with coordinates
 *     only (describe → tap x,y → describe …) and with refs + observe (describe once → tap ref, observe
 *     describe → …): tool calls and result characters per goal.
 * "Before" is the loop run the old way (`observeFromActions: false`, `actByRef: false`): main's behaviour.
 * Targets: ≥ 40 % fewer MCP tool calls with refs + observe; model input tokens per step on Settings ≤ 1,500.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DEVICE_OPERATIONS } from '@apex/capability';
import { catalogDevices, PlannerRegistry, resolvePlannerConfig, TaskService, type AgentOptions, type Task, type TaskDevices } from '@apex/tasks';
import { endStateProblems, lastMessageText, OFFLINE_GOAL_SUITE, phoneEndState, startFakeModelServer, type RecordedRequest, type ScriptStep, type SuiteGoal } from '@apex/tasks/testing';
import { inMemoryMcp, type McpCaller } from './support/mcp-clients';
import { target, type Section, type SectionResult } from './support/section';
import { startStack, type BenchStack } from './support/stack';
import { mean, percentile, round } from './support/stats';

const FEWER_CALLS_TARGET = 0.4;
const TOKENS_PER_STEP_TARGET = 1_500;
/** The fake model server's charge: one input token per 4 characters of the request body. */
const CHARS_PER_TOKEN = 4;

interface Way {
  name: 'before' | 'after';
  agent: Pick<AgentOptions, 'observeFromActions' | 'actByRef'>;
}
const WAYS: readonly Way[] = [
  { name: 'before', agent: { observeFromActions: false, actByRef: false } },
  { name: 'after', agent: {} },
];

interface TaskRun {
  ok: boolean;
  note: string;
  steps: number;
  /** Catalog operations the agent ran (actions, observations, look-ups, step screenshots). */
  operations: number;
  describes: number;
  deviceRequests: number;
  /** LLM planner only: the requests the model server saw. */
  modelRequests: RecordedRequest[];
}

/** The catalog over the stack, counting what the agent runs. */
function countingDevices(stack: BenchStack): { devices: TaskDevices; ran: string[] } {
  const inner = catalogDevices(stack.ctx);
  const ran: string[] = [];
  return { ran, devices: { ...inner, run: (id, operation, args, options) => (ran.push(operation), inner.run(id, operation, args, options)) } };
}

async function runTask(goal: SuiteGoal, way: Way, script?: (way: Way) => ScriptStep[]): Promise<TaskRun> {
  const stack = await startStack(1, { countRequests: true });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'apex-bench-agent-'));
  const server = script ? await startFakeModelServer('openai', script(way)) : undefined;
  const env: NodeJS.ProcessEnv = server ? { APEX_LLM_BASE_URL: server.baseURL, APEX_LLM_MODEL: 'fake-model', APEX_LLM_API_KEY: 'test-key', APEX_TASK_PLANNER: 'openai' } : {};
  const { devices, ran } = countingDevices(stack);
  const tasks = new TaskService({ dataDir, devices, planners: new PlannerRegistry(resolvePlannerConfig(env), DEVICE_OPERATIONS), agent: way.agent });
  try {
    const [iphone] = stack.phones;
    if (!iphone || !stack.requests) throw new Error('no phone');
    const before = stack.requests()[0] ?? 0;
    const task: Task = await tasks.whenSettled((await tasks.start({ deviceId: stack.ctx.hub.resolve(), goal: goal.goal })).id);
    const deviceRequests = (stack.requests()[0] ?? 0) - before;
    const problems = [
      ...(task.status !== goal.expect.status ? [`status ${task.status}: ${task.error?.message ?? ''}`] : []),
      ...(goal.expect.reason && task.error?.reason !== goal.expect.reason ? [`reason ${task.error?.reason}`] : []),
      ...endStateProblems(phoneEndState(iphone.phone), goal.expect),
    ];
    return {
      ok: problems.length === 0,
      note: problems.join('; '),
      steps: task.steps.length,
      operations: ran.length,
      describes: ran.filter((op) => op === 'describe_screen').length,
      deviceRequests,
      modelRequests: server?.requests ?? [],
    };
  } finally {
    await tasks.close();
    await server?.close();
    await stack.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---- the LLM planner's scripts: a model that reads the screens it is sent ----

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A tap on the element `role "label"` of the last screen sent: by its ref (after) or its centre (before). */
function tapOn(role: string, label: string, way: Way): ScriptStep {
  return (request) => {
    const text = lastMessageText(request);
    const match = new RegExp(`^(e\\d+) ${role} "${escape(label)}"[^\\n@]*@(\\d+(?:\\.\\d+)?),(\\d+(?:\\.\\d+)?)`, 'm').exec(text);
    if (!match) return { toolCalls: [{ name: 'give_up', arguments: { reason: `no ${role} "${label}" on the screen` } }] };
    const args = way.name === 'after' ? { ref: match[1] } : { x: Number(match[2]), y: Number(match[3]) };
    return { toolCalls: [{ name: 'tap', arguments: args }] };
  };
}

const finish = (check: RegExp): ScriptStep => (request) =>
  check.test(lastMessageText(request))
    ? { toolCalls: [{ name: 'finish_task', arguments: { result: 'Done.' } }] }
    : { toolCalls: [{ name: 'give_up', arguments: { reason: 'the screen does not show it' } }] };

interface LlmGoal extends SuiteGoal {
  /** The goal works on Settings (the tokens-per-step target). */
  settings: boolean;
  script(way: Way): ScriptStep[];
}

const SETTINGS = 'com.apple.Preferences';
const LLM_GOALS: LlmGoal[] = [
  {
    goal: 'Turn on Airplane Mode',
    expect: { status: 'succeeded', appId: SETTINGS, switches: { 'Airplane Mode': true } },
    settings: true,
    script: (w) => [tapOn('icon', 'Settings', w), tapOn('switch', 'Airplane Mode', w), finish(/switch "Airplane Mode" = on/)],
  },
  {
    goal: 'Turn off Wi-Fi',
    expect: { status: 'succeeded', appId: SETTINGS, switches: { 'Wi-Fi': false } },
    settings: true,
    script: (w) => [tapOn('icon', 'Settings', w), tapOn('switch', 'Wi-Fi', w), finish(/switch "Wi-Fi" = off/)],
  },
  {
    goal: 'Open Settings > General > About',
    expect: { status: 'succeeded', appId: SETTINGS, visibleText: ['Model Name'] },
    settings: true,
    script: (w) => [tapOn('icon', 'Settings', w), tapOn('cell', 'General', w), tapOn('cell', 'About', w), finish(/"Model Name"/)],
  },
  {
    goal: 'Open Maps and allow location once',
    expect: { status: 'succeeded', appId: 'com.apple.Maps', noAlert: true },
    settings: false,
    script: (w) => [tapOn('icon', 'Maps', w), tapOn('button', 'Allow Once', w), finish(/searchField "Search Maps"/)],
  },
];

/** Input tokens of each model request, whole (as charged) and what it added to the conversation before it. */
function tokensOf(requests: RecordedRequest[]): { whole: number[]; added: number[]; tools: number } {
  const whole = requests.map((r) => Math.ceil(JSON.stringify(r.body).length / CHARS_PER_TOKEN));
  const conversation = requests.map((r) => JSON.stringify(r.body['messages']).length);
  const added = conversation.map((chars, i) => Math.ceil((chars - (i > 0 ? (conversation[i - 1] as number) : 0)) / CHARS_PER_TOKEN));
  const tools = Math.ceil(JSON.stringify(requests[0]?.body['tools'] ?? []).length / CHARS_PER_TOKEN);
  return { whole, added, tools };
}

function distribution(values: readonly number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50)}, p90 ${percentile(sorted, 90)}, max ${sorted[sorted.length - 1] ?? NaN} (n ${values.length})`;
}

// ---- the scripted MCP client ----

interface Element {
  ref: string;
  role: string;
  label?: string;
  value?: string;
  center: { x: number; y: number };
}
interface Screen {
  elements: Element[];
  alert?: unknown;
}

interface ClientRun {
  calls: number;
  chars: number;
  ok: boolean;
}

/** One goal as touches on named elements, then a check of the last screen. */
interface ClientGoal {
  name: string;
  touches: Array<{ role: string; label: string }>;
  done(screen: Screen): boolean;
}

const CLIENT_GOALS: ClientGoal[] = [
  { name: 'open Settings → General → About', touches: [{ role: 'icon', label: 'Settings' }, { role: 'cell', label: 'General' }, { role: 'cell', label: 'About' }], done: (s) => s.elements.some((e) => e.label === 'Model Name') },
  { name: 'toggle Wi-Fi', touches: [{ role: 'icon', label: 'Settings' }, { role: 'switch', label: 'Wi-Fi' }], done: (s) => s.elements.some((e) => e.role === 'switch' && e.label === 'Wi-Fi' && /^(?:0|off)$/.test(e.value ?? '')) },
  { name: 'Maps alert: allow once', touches: [{ role: 'icon', label: 'Maps' }, { role: 'button', label: 'Allow Once' }], done: (s) => !s.alert && s.elements.some((e) => e.label === 'Search Maps') },
];

/** Plays a goal: `refs` false, describe → tap x,y → describe …; true, describe once → tap ref with observe "describe" → …. */
async function playGoal(client: McpCaller, device: string, goal: ClientGoal, refs: boolean): Promise<ClientRun> {
  let calls = 0;
  let chars = 0;
  const call = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> => {
    const result = await client.call(name, { device, ...args });
    calls += 1;
    chars += JSON.stringify(result.content).length + JSON.stringify(result.structuredContent ?? {}).length;
    return result;
  };
  const describe = async () => (await call('describe_screen', {})).structuredContent as unknown as Screen;
  let screen = await describe();
  for (const touch of goal.touches) {
    const element = screen.elements.find((e) => e.role === touch.role && e.label === touch.label);
    if (!element) return { calls, chars, ok: false };
    if (refs) {
      const result = await call('tap', { ref: element.ref, observe: 'describe' });
      screen = (result.structuredContent as { observed: { screen: Screen } }).observed.screen;
    } else {
      await call('tap', { x: element.center.x, y: element.center.y });
      screen = await describe();
    }
  }
  return { calls, chars, ok: goal.done(screen) };
}

// ---- the section ----

export const agentSection: Section = {
  name: 'agent',
  description: 'agent loop + planners with refs and observe vs the way before: device requests, tool calls, model tokens',
  async run({ quick, log }): Promise<SectionResult> {
    const result: SectionResult = {
      title: 'Agent with refs + observe vs before (coordinates, separate observations), per goal',
      columns: ['case', 'way', 'goals ok', 'device requests / goal', 'operations / goal', 'describe_screen / goal', 'steps / goal'],
      rows: [],
      targets: [],
      notes: [],
      data: {},
    };

    // 1. The offline goal suite, both ways alternating goal by goal.
    // Goals that start from the sample app (`given`) need a set-up this bench does not do (see offline-goals.spec.ts).
    const startsFresh = OFFLINE_GOAL_SUITE.filter((g) => !g.given);
    const suite = quick ? startsFresh.slice(0, 3) : startsFresh;
    const offline: Record<Way['name'], TaskRun[]> = { before: [], after: [] };
    for (const goal of suite) {
      for (const way of WAYS) {
        const run = await runTask(goal, way);
        offline[way.name].push(run);
        if (!run.ok) log(`  FAIL ${way.name} ${goal.goal}: ${run.note}`);
      }
    }
    const rowOf = (name: string, way: Way['name'], runs: TaskRun[]) => ({
      case: name,
      way,
      'goals ok': `${runs.filter((r) => r.ok).length}/${runs.length}`,
      'device requests / goal': round(mean(runs.map((r) => r.deviceRequests)), 1),
      'operations / goal': round(mean(runs.map((r) => r.operations)), 2),
      'describe_screen / goal': round(mean(runs.map((r) => r.describes)), 2),
      'steps / goal': round(mean(runs.map((r) => r.steps)), 2),
    });
    for (const way of WAYS) result.rows.push(rowOf(`offline planner, goal suite (${suite.length})`, way.name, offline[way.name]));
    const ratio = (a: number, b: number) => (b > 0 ? a / b : NaN);
    const offlineRequests = ratio(mean(offline.after.map((r) => r.deviceRequests)), mean(offline.before.map((r) => r.deviceRequests)));
    result.notes.push(`offline planner: device requests per goal after/before = ${round(offlineRequests, 3)}; operations per goal after/before = ${round(ratio(mean(offline.after.map((r) => r.operations)), mean(offline.before.map((r) => r.operations))), 3)}.`);
    log(`offline: requests after/before ${round(offlineRequests, 3)}`);

    // 2. The OpenAI-compatible planner against the fake model server.
    const llm: Record<Way['name'], Array<TaskRun & { goal: LlmGoal }>> = { before: [], after: [] };
    for (const goal of LLM_GOALS) {
      for (const way of WAYS) {
        const run = await runTask(goal, way, goal.script);
        llm[way.name].push({ ...run, goal });
        if (!run.ok) log(`  FAIL llm ${way.name} ${goal.goal}: ${run.note}`);
      }
    }
    for (const way of WAYS) result.rows.push(rowOf(`openai planner (fake model), ${LLM_GOALS.length} goals`, way.name, llm[way.name]));
    const tokenData: Record<string, unknown> = {};
    let settingsAddedMax = NaN;
    for (const way of WAYS) {
      const all = llm[way.name].map((r) => tokensOf(r.modelRequests));
      const settings = llm[way.name].filter((r) => r.goal.settings).map((r) => tokensOf(r.modelRequests));
      const whole = all.flatMap((t) => t.whole);
      const added = settings.flatMap((t) => t.added);
      const tools = all[0]?.tools ?? NaN;
      result.notes.push(
        `openai planner ${way.name}: input tokens per model request (whole, as charged) ${distribution(whole)}, of which the tool list is ${tools}; ` +
          `added per step on Settings goals (the step's result + screen) ${distribution(added)}; model requests per goal ${round(mean(llm[way.name].map((r) => r.modelRequests.length)), 2)}.`,
      );
      tokenData[way.name] = { whole, addedOnSettings: added, toolsTokens: tools };
      if (way.name === 'after') {
        const wholeSettings = settings.flatMap((t) => t.whole).sort((a, b) => a - b);
        settingsAddedMax = [...added].sort((a, b) => a - b)[added.length - 1] ?? NaN;
        result.targets.push(target('model input tokens added per step on Settings, max (after)', `≤ ${TOKENS_PER_STEP_TARGET}`, settingsAddedMax, 'tokens', settingsAddedMax <= TOKENS_PER_STEP_TARGET));
        const wholeP50 = percentile(wholeSettings, 50);
        result.targets.push(target('model input tokens per request on Settings incl. tool list and history, p50 (after)', `≤ ${TOKENS_PER_STEP_TARGET}`, wholeP50, 'tokens', wholeP50 <= TOKENS_PER_STEP_TARGET));
      }
    }
    (result.data as Record<string, unknown>)['llmTokens'] = tokenData;

    // 3. A scripted MCP client: coordinates only vs refs + observe.
    const client: Record<'coordinates' | 'refs', ClientRun[]> = { coordinates: [], refs: [] };
    for (const goal of CLIENT_GOALS) {
      for (const refs of [false, true]) {
        const stack = await startStack(1, { countRequests: true });
        const mcp = await inMemoryMcp(stack.ctx);
        try {
          const [device] = stack.ids;
          if (!device) throw new Error('no phone');
          const run = await playGoal(mcp, device, goal, refs);
          client[refs ? 'refs' : 'coordinates'].push(run);
          result.rows.push({
            case: `MCP client: ${goal.name}`,
            way: refs ? 'refs + observe' : 'coordinates',
            'goals ok': run.ok ? '1/1' : '0/1',
            'device requests / goal': stack.requests?.()[0] ?? null,
            'operations / goal': run.calls,
            'describe_screen / goal': null,
            'steps / goal': null,
          });
          result.notes.push(`MCP client ${goal.name}, ${refs ? 'refs + observe' : 'coordinates'}: ${run.calls} tool calls, ${run.chars} result characters.`);
        } finally {
          await mcp.close();
          await stack.close();
        }
      }
    }
    const callsBefore = client.coordinates.reduce((n, r) => n + r.calls, 0);
    const callsAfter = client.refs.reduce((n, r) => n + r.calls, 0);
    const fewer = 1 - callsAfter / callsBefore;
    result.targets.push(target('MCP client tool calls, refs + observe vs coordinates (fewer)', `≥ ${FEWER_CALLS_TARGET * 100} %`, fewer * 100, '%', fewer >= FEWER_CALLS_TARGET && client.refs.every((r) => r.ok)));
    const charsBefore = client.coordinates.reduce((n, r) => n + r.chars, 0);
    const charsAfter = client.refs.reduce((n, r) => n + r.chars, 0);
    result.notes.push(`MCP client, ${CLIENT_GOALS.length} goals: ${callsBefore} → ${callsAfter} tool calls; ${charsBefore} → ${charsAfter} result characters (after/before ${round(charsAfter / charsBefore, 3)}). describe_screen and observe "describe" both read the pixels (OCR) by default.`);
    Object.assign(result.data as Record<string, unknown>, {
      offline: Object.fromEntries(WAYS.map((w) => [w.name, offline[w.name].map(({ modelRequests: _m, ...r }) => r)])),
      llm: Object.fromEntries(WAYS.map((w) => [w.name, llm[w.name].map(({ modelRequests: _m, goal, ...r }) => ({ goal: goal.goal, ...r }))])),
      mcpClient: client,
    });
    log(`mcp client: ${callsBefore} → ${callsAfter} calls, tokens added per Settings step max ${settingsAddedMax}`);
    return result;
  },
};
