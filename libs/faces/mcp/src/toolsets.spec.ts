import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_TOOLSETS, DEVICE_OPERATIONS, operationsIn, type Toolset } from '@apex/capability';
import { leakedWordsIn } from '@apex/errors/testing';
import { DeviceHub } from '@apex/hub';
import { FakeDriver } from '@apex/hub/testing';
import { Perception } from '@apex/perception';
import { createMcpServer, ENABLE_TOOLSET, ERROR_META_KEY, LIST_TOOLSETS, type McpServerOptions } from './index';

/** Toolsets on the MCP face, through the SDK's real client: what is listed, what is callable, how a client widens it. */
describe('MCP toolsets', () => {
  let hub: DeviceHub;
  let perception: Perception;
  let client: Client;
  let listChanged: number;
  const texts: string[] = [];

  async function connect(options: McpServerOptions): Promise<void> {
    const server = createMcpServer({ hub, perception }, options);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    client = new Client({ name: 'toolsets', version: '1.0.0' });
    listChanged = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      listChanged += 1;
    });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  }

  async function call(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    for (const item of result.content) if (item.type === 'text') texts.push(item.text);
    texts.push(JSON.stringify(result.structuredContent ?? {}), JSON.stringify(result._meta ?? {}));
    return result;
  }

  async function toolNames(): Promise<string[]> {
    return (await client.listTools()).tools.map((t) => t.name);
  }

  const namesIn = (toolsets: readonly Toolset[]) => operationsIn(DEVICE_OPERATIONS, toolsets).map((op) => op.name);

  beforeEach(() => {
    hub = new DeviceHub({ backgroundProbes: false });
    hub.register({ id: 'phone', name: 'Phone', driver: new FakeDriver({ screen: { width: 390, height: 844, scale: 3 } }) });
    perception = new Perception(hub);
  });

  afterEach(async () => {
    await client.close();
    await perception.close();
    await hub.close();
  });

  afterAll(() => {
    for (const text of texts) expect(leakedWordsIn(text)).toEqual([]);
  });

  it('lists only the chosen toolsets, then list_toolsets and enable_toolset', async () => {
    await connect({ toolsets: DEFAULT_TOOLSETS });
    expect(await toolNames()).toEqual([...namesIn(DEFAULT_TOOLSETS), LIST_TOOLSETS, ENABLE_TOOLSET]);
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
  });

  it('lists every operation when no toolsets are chosen (a library caller that passes none)', async () => {
    await connect({});
    expect(await toolNames()).toEqual([...DEVICE_OPERATIONS.map((op) => op.name), LIST_TOOLSETS, ENABLE_TOOLSET]);
  });

  it('list_toolsets says what each toolset holds and whether it is enabled', async () => {
    await connect({ toolsets: ['observe', 'act'] });
    const result = await call(LIST_TOOLSETS);
    expect(result.isError).toBeFalsy();
    const { toolsets } = result.structuredContent as { toolsets: { name: string; enabled: boolean; tools: string[]; description: string }[] };
    expect(toolsets.find((t) => t.name === 'gestures')).toEqual({
      name: 'gestures',
      description: expect.stringContaining('long press'),
      enabled: false,
      tools: ['double_tap', 'long_press', 'pinch'],
    });
    expect(toolsets.filter((t) => t.enabled).map((t) => t.name)).toEqual(['observe', 'act']);
    // Toolsets this catalog has no tools in are not listed.
    expect(toolsets.map((t) => t.name)).not.toContain('tasks');
    const first = result.content[0];
    expect(first?.type === 'text' && first.text).toContain('gestures (not enabled): double_tap, long_press, pinch');
  });

  it('refuses a tool outside the enabled toolsets with a semantic error that names the toolset to enable', async () => {
    await connect({ toolsets: DEFAULT_TOOLSETS });
    const result = await call('pinch', { scale: 2 });
    expect(result.isError).toBe(true);
    expect(result._meta?.[ERROR_META_KEY]).toMatchObject({
      code: 'invalid_argument',
      message: 'The tool pinch is in the toolset "gestures", which this session has not enabled.',
      hint: 'Call enable_toolset {"toolset":"gestures"}, then call pinch again.',
    });
  });

  it('enable_toolset adds the toolset: the client gets tools/list_changed, the tools are listed and work', async () => {
    await connect({ toolsets: DEFAULT_TOOLSETS });
    const result = await call(ENABLE_TOOLSET, { toolset: 'gestures' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ toolset: 'gestures', tools: ['double_tap', 'long_press', 'pinch'], alreadyEnabled: false });
    // The notification is sent before the result, on the same ordered transport.
    expect(listChanged).toBe(1);
    expect(await toolNames()).toEqual([...namesIn([...DEFAULT_TOOLSETS, 'gestures']), LIST_TOOLSETS, ENABLE_TOOLSET]);
    const pinch = await call('pinch', { scale: 2, observe: 'none' });
    expect(pinch.isError).toBeFalsy();
    expect(pinch.structuredContent).toMatchObject({ scale: 2 });

    // Enabling it again changes nothing and sends no notification.
    const again = await call(ENABLE_TOOLSET, { toolset: 'gestures' });
    expect(again.structuredContent).toMatchObject({ alreadyEnabled: true });
    expect(listChanged).toBe(1);
  });

  it('enable_toolset refuses an unknown toolset with invalid_argument listing the valid ones', async () => {
    await connect({ toolsets: DEFAULT_TOOLSETS });
    const result = await call(ENABLE_TOOLSET, { toolset: 'everything' });
    expect(result.isError).toBe(true);
    const error = result._meta?.[ERROR_META_KEY] as { code: string; message: string };
    expect(error.code).toBe('invalid_argument');
    expect(error.message).toContain('toolset');
    expect(error.message).toContain('gestures');
    expect(listChanged).toBe(0);
  });

  it('a session that cannot widen (stateless HTTP) has no enable_toolset, and its refusal says how to ask', async () => {
    await connect({ toolsets: ['observe'], dynamicToolsets: false, toolsetsHint: (toolset) => `Ask for ${toolset} in the URL.` });
    expect(client.getServerCapabilities()?.tools?.listChanged).toBeUndefined();
    expect(await toolNames()).toEqual([...namesIn(['observe']), LIST_TOOLSETS]);
    const result = await call('tap', { x: 1, y: 1 });
    expect(result._meta?.[ERROR_META_KEY]).toMatchObject({ code: 'invalid_argument', hint: 'Ask for act in the URL.' });
    await expect(client.callTool({ name: ENABLE_TOOLSET, arguments: { toolset: 'act' } })).rejects.toThrow(/Unknown tool: enable_toolset/);
  });
});
