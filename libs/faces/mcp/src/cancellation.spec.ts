import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { DeviceHub } from '@apex/hub';
import { FakeDriver } from '@apex/hub/testing';
import { Perception } from '@apex/perception';
import { eventually } from '@apex/testing';
import { startMcpHttpServer, type McpHttpServer } from './http-server';
import { MAX_MESSAGES_PER_POST, MAX_TOOL_CALLS_PER_POST } from './http';
import { createMcpServer } from './server';

const WAIT = { timeoutMs: 10_000 };

describe('MCP calls that are cancelled or batched', () => {
  const driver = new FakeDriver();
  const hub = new DeviceHub({ backgroundProbes: false });
  hub.register({ id: 'phone', driver });
  const perception = new Perception(hub);
  afterAll(async () => {
    await perception.close();
    await hub.close();
  });

  it('a cancelled tools/call (notifications/cancelled) withdraws its queued action', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = createMcpServer({ hub, perception });
    const client = new Client({ name: 'cancel-test', version: '1.0.0' });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    try {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      driver.behave('tap', async () => held);
      const first = client.callTool({ name: 'tap', arguments: { x: 1, y: 1 } });
      await eventually(() => driver.callsOf('tap').length === 1, { ...WAIT, what: 'the first tap to reach the device' });
      const controller = new AbortController();
      const second = client.callTool({ name: 'tap', arguments: { x: 2, y: 2 } }, undefined, { signal: controller.signal });
      second.catch(() => undefined);
      await eventually(() => hub.waiting('phone') === 1, { ...WAIT, what: 'the second tap to wait in the queue' });

      controller.abort();
      await expect(second).rejects.toThrow(/abort/i);
      await eventually(() => hub.waiting('phone') === 0, { ...WAIT, what: 'the cancelled tap to leave the queue' });
      release();
      expect((await first).isError).toBeFalsy();
      driver.behave('tap', undefined);
      expect(driver.callsOf('tap').map((c) => c.args[0])).toEqual([{ x: 1, y: 1 }]);
    } finally {
      driver.behave('tap', undefined);
      await client.close();
    }
  });

  describe('over HTTP', () => {
    let http: McpHttpServer;
    beforeAll(async () => {
      http = await startMcpHttpServer({ hub, perception }, { port: 0 });
    });
    afterAll(() => http.close());

    it(`answers at most ${MAX_TOOL_CALLS_PER_POST} tool calls of one batch; the rest get an error, not a result`, async () => {
      const calls = Array.from({ length: MAX_TOOL_CALLS_PER_POST + 2 }, (_, i) => ({
        jsonrpc: '2.0',
        id: i + 1,
        method: 'tools/call',
        params: { name: 'list_devices', arguments: {} },
      }));
      const res = await fetch(http.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(calls),
      });
      expect(res.status).toBe(200);
      const answers = (await res.json()) as { id: number; result?: unknown; error?: { code: number; message: string } }[];
      expect(answers).toHaveLength(calls.length);
      expect(answers.filter((a) => a.result !== undefined)).toHaveLength(MAX_TOOL_CALLS_PER_POST);
      const refused = answers.filter((a) => a.error !== undefined);
      expect(refused).toHaveLength(2);
      for (const a of refused) expect(a.error).toMatchObject({ code: -32600, message: expect.stringMatching(/at most 4 tool calls/) });
    });

    it(`refuses a batch of more than ${MAX_MESSAGES_PER_POST} messages of any kind with one small JSON-RPC error; ${MAX_MESSAGES_PER_POST} are answered`, async () => {
      const lists = (count: number) => Array.from({ length: count }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/list' }));
      const post = (body: unknown) =>
        fetch(http.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(body) });
      const flood = await post(lists(100));
      const text = await flood.text();
      expect(flood.status).toBe(400);
      expect(JSON.parse(text)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/at most 10 JSON-RPC messages, this one 100/) } });
      expect(text.length).toBeLessThan(1_000);
      const allowed = await post(lists(MAX_MESSAGES_PER_POST));
      expect(allowed.status).toBe(200);
      const answers = (await allowed.json()) as { result?: { tools: unknown[] } }[];
      expect(answers.map((a) => (a.result?.tools.length ?? 0) > 0)).toEqual(Array(MAX_MESSAGES_PER_POST).fill(true));
      const broken = await fetch(http.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '[{"jsonrpc"' });
      expect([broken.status, ((await broken.json()) as { error: { code: number } }).error.code]).toEqual([400, -32700]);
    });

    it('refuses a body over the request body limit with 413 before reading it', async () => {
      const res = await fetch(http.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(1024 * 1024) } }),
      });
      expect(res.status).toBe(413);
    });
  });
});
