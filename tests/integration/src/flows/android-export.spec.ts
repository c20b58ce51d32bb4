import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { EMBEDDED_ANDROID_ID } from '@apex/runtime';
import { startRestHarness, type RestHarness } from '../rest/harness';

const SETTINGS = 'com.android.settings';

/**
 * On the embedded virtual Android phone (no config, no adb): a task an agent finished is exported as a flow over
 * MCP (export_flow) and replayed by run_flow from a reset phone; the end state is read from the phone itself.
 */
describe('a flow exported on Android replays on Android (MCP, android-virtual)', () => {
  let h: RestHarness;
  let client: Client;
  const phone = () => {
    const embedded = h.runtime.embeddedAndroid;
    if (!embedded) throw new Error('no embedded Android phone');
    return embedded.android.phone;
  };
  const callTool = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
    return result.structuredContent as Record<string, unknown>;
  };

  beforeAll(async () => {
    h = await startRestHarness();
    client = new Client({ name: 'android-flows-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`)));
  });
  afterAll(async () => {
    await client?.close();
    await h?.close();
  });

  it('the offline planner switches Wi-Fi off; its exported flow does it again from a reset phone', async () => {
    expect(phone().system.wifi).toBe(true);
    const started = await callTool('start_task', { device: EMBEDDED_ANDROID_ID, goal: 'open Settings and switch Wi-Fi off', planner: 'offline' });
    const task = await h.runtime.tasks.whenSettled(started['taskId'] as string);
    expect({ status: task.status, device: task.deviceId }).toEqual({ status: 'succeeded', device: EMBEDDED_ANDROID_ID });
    expect(phone().system.wifi).toBe(false);

    const exported = await callTool('export_flow', { taskId: task.id });
    const flow = exported['flow'] as { steps: Record<string, unknown>[] };
    // Steps name elements by what the screen shows, never by points.
    expect(JSON.stringify(flow.steps)).not.toMatch(/"point"/);
    expect(exported['skipped']).toEqual([]);

    // Back to where the task began: Wi-Fi on, Settings stopped, the home screen.
    phone().setSetting(() => (phone().system.wifi = true));
    phone().forceStop(SETTINGS);
    phone().pressHome();
    expect(phone().system.wifi).toBe(true);

    const replay = await callTool('run_flow', { device: EMBEDDED_ANDROID_ID, yaml: exported['yaml'] });
    const replayed = await h.runtime.tasks.whenSettled(replay['taskId'] as string);
    expect({ status: replayed.status, planner: replayed.planner, device: replayed.deviceId }).toEqual({ status: 'succeeded', planner: 'flow', device: EMBEDDED_ANDROID_ID });
    expect(phone().system.wifi).toBe(false);
    expect(phone().focus().pkg).toBe(SETTINGS);
    // The iPhone, the default device, was not touched.
    expect(h.runtime.embedded?.phone.activeApp().bundleId).toBe('com.apple.springboard');
  }, 180_000);
});
