import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { leakedWordsIn } from '@apex/errors/testing';
import { DEVICE_OPERATIONS, takesDevice, type AnyOperation } from '@apex/capability';
import { REST_ROUTES, TASK_ROUTES } from '@apex/rest';
import { TASK_OPERATIONS } from '@apex/tasks';
import { BAD_INPUT_CASES, type BadInputCase } from './bad-input-cases';
import { jsonClient, startApexOverPhones, type ApexOverPhones } from './support';

interface Verdict {
  code: unknown;
  fields: string[];
  message: string;
  text: string;
}

const OPERATIONS: readonly AnyOperation[] = [...DEVICE_OPERATIONS, ...TASK_OPERATIONS];

function inputOf(c: BadInputCase, phone: string): Record<string, unknown> {
  const op = OPERATIONS.find((o) => o.name === c.operation);
  if (!op) throw new Error(`no operation ${c.operation}`);
  return takesDevice(op) ? { ...c.args, device: c.device ?? phone } : { ...c.args };
}

/** The case as REST carries it: the operation's route, `{id}` from the path field, the rest as body or query. */
function restRequestOf(c: BadInputCase, phone: string): { method: 'GET' | 'POST'; path: string; body?: Record<string, unknown> } {
  const route = [...REST_ROUTES, ...TASK_ROUTES].find((r) => r.operation === c.operation);
  if (!route) throw new Error(`no route for ${c.operation}`);
  const input = inputOf(c, phone);
  let path = route.path;
  if (path.includes('{id}')) {
    const field = route.pathField ?? 'device';
    path = path.replace('{id}', encodeURIComponent(String(input[field])));
    delete input[field];
  }
  if (route.method === 'POST') return { method: 'POST', path, body: input };
  const query = Object.entries(input).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v))}`);
  return { method: 'GET', path: query.length ? `${path}?${query.join('&')}` : path };
}

describe(`bad input through both faces: ${BAD_INPUT_CASES.length} cases, the same semantic code from MCP and REST`, () => {
  let apex: ApexOverPhones;
  let client: ReturnType<typeof jsonClient>;
  let mcp: Client;
  let phone: string;
  let versionBefore: number;

  beforeAll(async () => {
    apex = await startApexOverPhones({ count: 1 });
    phone = apex.ids[0] as string;
    client = jsonClient(apex.api.url);
    mcp = new Client({ name: 'reliability', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(apex.api.mcpUrl as string)));
    versionBefore = apex.iphones[0]?.phone.version ?? -1;
  }, 60_000);

  afterAll(async () => {
    await mcp?.close();
    client?.close();
    await apex?.close();
  }, 60_000);

  async function viaMcp(c: BadInputCase): Promise<Verdict> {
    const result = (await mcp.callTool({ name: c.operation, arguments: inputOf(c, phone) })) as CallToolResult;
    expect(result.isError).toBe(true);
    const error = (result._meta?.['apex/error'] ?? {}) as { code?: string; message?: string; issues?: { path: string }[] };
    return { code: error.code, fields: (error.issues ?? []).map((i) => i.path), message: error.message ?? '', text: JSON.stringify(result) };
  }

  async function viaRest(c: BadInputCase): Promise<Verdict> {
    const request = restRequestOf(c, phone);
    const answer = request.method === 'GET' ? await client.get(request.path) : await client.post(request.path, request.body);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    const errors = (answer.body.errors ?? []) as { path: string }[];
    return { code: answer.body.code, fields: errors.map((e) => e.path), message: String(answer.body.detail ?? ''), text: JSON.stringify(answer.body) };
  }

  it('has at least 30 cases, each naming an operation both faces serve', () => {
    expect(BAD_INPUT_CASES.length).toBeGreaterThanOrEqual(30);
    expect(new Set(BAD_INPUT_CASES.map((c) => c.name)).size).toBe(BAD_INPUT_CASES.length);
    for (const c of BAD_INPUT_CASES) expect(() => restRequestOf(c, 'p')).not.toThrow();
  });

  it.each(BAD_INPUT_CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const [fromMcp, fromRest] = await Promise.all([viaMcp(c), viaRest(c)]);
    expect(fromMcp.code).toBe(c.code);
    expect(fromRest.code).toBe(c.code);
    if (c.field) {
      expect(fromRest.fields).toContain(c.field);
      expect(fromMcp.fields).toContain(c.field);
    }
    expect(leakedWordsIn(fromMcp.text)).toEqual([]);
    expect(leakedWordsIn(fromRest.text)).toEqual([]);
  });

  it('serves normally afterwards through both faces, and no bad call changed the phone or started a task', async () => {
    expect(apex.iphones[0]?.phone.version).toBe(versionBefore);
    const listed = (await mcp.callTool({ name: 'list_devices', arguments: {} })) as CallToolResult;
    expect(listed.isError).toBeFalsy();
    expect(listed.structuredContent).toMatchObject({ devices: [expect.objectContaining({ id: phone, state: 'online' })] });
    const tasks = await client.get('/tasks');
    expect(tasks.status).toBe(200);
    expect(tasks.body.tasks).toEqual([]);
    const tapped = (await mcp.callTool({ name: 'tap', arguments: { x: 5, y: 30 } })) as CallToolResult;
    expect(tapped.isError).toBeFalsy();
    expect((await client.post(`/devices/${phone}/tap`, { x: 5, y: 30 })).status).toBe(200);
    expect((await client.get(`/devices/${phone}`)).body).toMatchObject({ id: phone, state: 'online' });
  });
});
