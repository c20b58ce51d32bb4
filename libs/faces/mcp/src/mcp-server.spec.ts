import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DeviceHub } from '@apex/hub';
import { FakeDriver } from '@apex/hub/testing';
import { ApexError } from '@apex/errors';
import { Perception } from '@apex/perception';
import { leakedWordsIn } from '@apex/errors/testing';
import { createMcpServer, ERROR_META_KEY } from './index';

/** The catalog's behaviour on the MCP face; the product's reviewed tools/list is tests/integration/src/mcp/tools-list.spec.ts. */
describe('the MCP server over the catalog', () => {
  let hub: DeviceHub;
  let driver: FakeDriver;
  let perception: Perception;
  let client: Client;
  const texts: string[] = [];

  async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    for (const item of result.content) if (item.type === 'text') texts.push(item.text);
    texts.push(JSON.stringify(result.structuredContent ?? {}), JSON.stringify(result._meta ?? {}));
    return result;
  }

  function textOf(result: CallToolResult): string {
    const first = result.content[0];
    return first?.type === 'text' ? first.text : '';
  }

  beforeEach(async () => {
    hub = new DeviceHub({ backgroundProbes: false });
    driver = new FakeDriver({ screen: { width: 390, height: 844, scale: 3 } });
    hub.register({ id: 'iphone-a', name: 'iPhone A', driver });
    perception = new Perception(hub);
    const server = createMcpServer({ hub, perception });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    client = new Client({ name: 'test', version: '1.0.0' });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  });

  afterEach(async () => {
    await client.close();
    await perception.close();
    await hub.close();
  });

  afterAll(() => {
    for (const text of texts) expect(leakedWordsIn(text)).toEqual([]);
  });

  it('returns structured content and a short text', async () => {
    const result = await call('tap', { x: 10, y: 20, observe: 'none' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ tapped: { x: 10, y: 20 } });
    expect(textOf(result)).toBe('Tapped (10, 20).');
  });

  it('returns a screenshot as an MCP image with its pixel mapping', async () => {
    const result = await call('take_screenshot', {});
    expect(result.content.map((c) => c.type)).toEqual(['text', 'image']);
    const image = result.content[1];
    expect(image).toMatchObject({ type: 'image', mimeType: 'image/jpeg' });
    expect(textOf(result)).toMatch(/JPEG.*1 image pixel = 1 point/);
    expect(result.structuredContent).toMatchObject({ format: 'jpeg', pixelsPerPoint: 1 });
  });

  it('answers bad arguments with a semantic invalid_argument listing each field', async () => {
    const result = await call('tap', { x: -5, y: 'ten', extra: true });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^invalid_argument: Invalid tap arguments: .*x: .*y: .* Hint: /);
    const error = result._meta?.[ERROR_META_KEY] as { code: string; issues: { path: string }[]; hint: string };
    expect(error.code).toBe('invalid_argument');
    expect(error.issues.map((i) => i.path).sort()).toEqual(['extra', 'x', 'y']);
    expect(result.structuredContent).toBeUndefined();
    expect(driver.calls).toEqual([]);
  });

  it('refuses a __proto__ key as an unknown field, as REST does, instead of dropping it', async () => {
    const result = await call('tap', JSON.parse('{"x": 5, "y": 5, "__proto__": {"x": 1}}') as Record<string, unknown>);
    expect(result.isError).toBe(true);
    const error = result._meta?.[ERROR_META_KEY] as { code: string; issues: { path: string; message: string }[] };
    expect(error.code).toBe('invalid_argument');
    expect(error.issues).toEqual([{ path: '__proto__', message: 'is not a known field' }]);
    expect(driver.calls).toEqual([]);
  });

  it('answers device failures with their code, never their cause', async () => {
    driver.behave('tap', async () => {
      throw new ApexError('device_offline', 'iphone-a is not reachable.', {
        hint: 'Check that the phone is on and connected.',
        cause: new Error('connect ECONNREFUSED 127.0.0.1:8100'),
      });
    });
    const result = await call('tap', { x: 10, y: 10 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('device_offline: iphone-a is not reachable. Hint: Check that the phone is on and connected.');
  });

  it('answers an unexpected failure as internal, without its message', async () => {
    driver.behave('terminateApp', async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'value')");
    });
    const crash = await call('terminate_app', { appId: 'com.example.fake' });
    expect(textOf(crash)).toMatch(/^internal: /);
    expect(textOf(crash)).not.toMatch(/Cannot read/);
  });

  it('answers an unknown device with the ids there are', async () => {
    const result = await call('device_status', { device: 'iphone-z' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^device_not_found: .*iphone-a/);
  });

  it('keeps unknown tools and malformed requests as protocol errors', async () => {
    await expect(client.callTool({ name: 'reboot_phone', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    const unknown = await client.callTool({ name: 'x'.repeat(100_000), arguments: {} }).catch((error: Error) => error);
    expect((unknown as Error).message).toMatch(/Unknown tool: x{63}…\. Call tools\/list/);
    // A tools/call without a name fails the request schema: a JSON-RPC error, not a tool result.
    await expect(client.request({ method: 'tools/call', params: { arguments: {} } } as never, {} as never)).rejects.toMatchObject({
      code: expect.any(Number),
      message: expect.stringMatching(/name/),
    });
  });
});
