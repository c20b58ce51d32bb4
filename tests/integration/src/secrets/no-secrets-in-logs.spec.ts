import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createRestLogger, startRestApi, type RestApiHandle } from '@apex/rest';
import { createLogger, createRuntime, EMBEDDED_DEVICE_ID, type Runtime } from '@apex/runtime';
import { startFakeModelServer, type FakeModelServer } from '@apex/tasks/testing';
import { eventually } from '@apex/testing';

const TOKEN = 'tok-4f1c9e7a2b6d8053';
const API_KEY = 'sk-live-9d2e7c41b0a6f385';
const TYPED_OVER_REST = 'rest-hunter2-pw';
const TYPED_OVER_MCP = 'mcp-correct-horse';
const TYPED_BY_TASK = 'task-s3cr3t-pin';
const FLOW_VAR_OVER_REST = 'flow-rest-pa55word';
const FLOW_VAR_OVER_MCP = 'flow-mcp-pa55word';
const SECRETS = [TOKEN, API_KEY, TYPED_OVER_REST, TYPED_OVER_MCP, TYPED_BY_TASK, FLOW_VAR_OVER_REST, FLOW_VAR_OVER_MCP];

/** Every file under `dir`, as text. */
function filesUnder(dir: string): Array<{ file: string; text: string }> {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((file) => statSync(file).isFile())
    .map((file) => ({ file, text: readFileSync(file).toString('latin1') }));
}

/** Every line pino writes, as the process would have put it on stderr. */
function logSink() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, stream };
}

describe('no token, API key, typed text or flow variable reaches a log line, a task step or a file', () => {
  const logs = logSink();
  let dir: string;
  let model: FakeModelServer;
  let runtime: Runtime;
  let api: RestApiHandle;
  let mcp: Client;
  const device = `/devices/${EMBEDDED_DEVICE_ID}`;

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${api.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'apex-secrets-it-'));
    model = await startFakeModelServer(
      'openai',
      [{ toolCalls: [{ name: 'input_text', arguments: { text: TYPED_BY_TASK } }] }, { toolCalls: [{ name: 'finish_task', arguments: { result: 'Typed it.' } }] }],
      { apiKey: API_KEY },
    );
    const env = { APEX_TOKEN: TOKEN, APEX_LLM_BASE_URL: model.baseURL, APEX_LLM_MODEL: 'fake-model', APEX_LLM_API_KEY: API_KEY, APEX_TASK_PLANNER: 'openai' };
    // The most talkative level: whatever any part would ever log.
    runtime = await createRuntime({ env, dataDir: join(dir, 'data'), logger: createLogger({ level: 'trace', destination: logs.stream }) });
    api = await startRestApi(runtime, { port: 0, token: TOKEN, logger: createRestLogger({ level: 'trace', destination: logs.stream }) });
    mcp = new Client({ name: 'secrets-it', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
  });

  afterAll(async () => {
    await mcp?.close();
    await api?.close();
    await runtime?.close();
    await model?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('types over REST, over MCP and in a model-planned task, and keeps every secret out of logs and steps', async () => {
    expect((await call('POST', `${device}/launch`, { appId: 'com.apple.mobilenotes' })).status).toBe(200);
    const screen = await call('GET', `${device}/describe`);
    const field = (screen.body['elements'] as Array<{ role: string; center: { x: number; y: number } }>).find((e) => e.role === 'textField');
    expect(field).toBeDefined();
    expect((await call('POST', `${device}/tap`, field?.center)).status).toBe(200);
    expect((await call('POST', `${device}/input`, { text: TYPED_OVER_REST })).status).toBe(200);
    const typed = (await mcp.callTool({ name: 'input_text', arguments: { device: EMBEDDED_DEVICE_ID, text: TYPED_OVER_MCP } })) as CallToolResult;
    expect(typed.isError).toBeFalsy();

    const started = await call('POST', '/agent/task', { goal: 'Add a line to the note' });
    expect(started.status).toBe(202);
    const taskId = started.body['taskId'] as string;
    await eventually(async () => (await call('GET', `/task/${taskId}`)).body['status'] === 'succeeded', { timeoutMs: 30_000, what: 'the task to succeed' });
    expect(model.requests[0].headers.authorization).toBe(`Bearer ${API_KEY}`);

    // The task's typing step, as REST and MCP show it: the length, not the text.
    const overRest = (await call('GET', `/task/${taskId}`)).body;
    const overMcp = ((await mcp.callTool({ name: 'get_task', arguments: { taskId } })) as CallToolResult).structuredContent ?? {};
    for (const task of [overRest, overMcp]) {
      const steps = task['steps'] as Array<{ action: { operation: string; arguments: Record<string, unknown> } }>;
      expect(steps.find((s) => s.action.operation === 'input_text')?.action.arguments).toEqual({ text: '•••', length: TYPED_BY_TASK.length });
      expect(JSON.stringify(task)).not.toContain(TYPED_BY_TASK);
    }

    // A flow typing a password given as a variable, over REST and over MCP.
    const flowOverRest = await call('POST', '/flows/run', { yaml: 'name: Sign in\nsteps:\n  - type: "${pw}"\n', vars: { pw: FLOW_VAR_OVER_REST } });
    expect(flowOverRest.status).toBe(202);
    const flowOverMcp = (await mcp.callTool({ name: 'run_flow', arguments: { flow: { name: 'Sign in', steps: [{ type: '${pw}' }] }, vars: { pw: FLOW_VAR_OVER_MCP } } })) as CallToolResult;
    expect(flowOverMcp.isError).toBeFalsy();
    const flowTasks = [[flowOverRest.body['taskId'] as string, FLOW_VAR_OVER_REST], [(flowOverMcp.structuredContent as { taskId: string }).taskId, FLOW_VAR_OVER_MCP]];
    for (const [id, secret] of flowTasks) {
      const flowTask = await runtime.tasks.whenSettled(id as string);
      expect(flowTask.status).toBe('succeeded');
      expect(flowTask.steps.map((s) => s.action)).toEqual([{ operation: 'input_text', arguments: { text: '•••', length: secret?.length } }]);
    }

    // The logs were captured (requests, the MCP call, the task) and hold none of the secrets.
    const all = logs.lines.join('\n');
    expect(all).toMatch(/"path":"\/devices\/iphone-virtual\/input"/);
    expect(all).toMatch(/"tool":"input_text"/);
    expect(all).toMatch(/task finished/);
    for (const secret of SECRETS) expect({ secret, lines: logs.lines.filter((line) => line.includes(secret)) }).toEqual({ secret, lines: [] });
    // Both faces logged the flow's input (at debug), its variables redacted.
    expect(all).toMatch(/"operation":"run_flow","input":\{.*"vars":"\[redacted\]"/);
    expect(all).toMatch(/"tool":"run_flow","input":\{.*"vars":"\[redacted\]"/);
    // Nor the task store and the step screenshots on disk.
    const files = filesUnder(join(dir, 'data'));
    expect(files.length).toBeGreaterThan(0);
    for (const secret of SECRETS.slice(2)) expect({ secret, files: files.filter((f) => f.text.includes(secret)).map((f) => f.file) }).toEqual({ secret, files: [] });
  });
});
