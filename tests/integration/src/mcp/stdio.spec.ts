import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { leakedWordsIn } from '@apex/errors/testing';
import { eventually, spawnNode } from '@apex/testing';
import { startVirtualIPhone, type VirtualIPhone } from '@apex/virtual-device';
import { APEX_BIN, errorCodeOf, startStdioSession, textOf, type StdioSession } from './stdio-client';

const SPAWN_TIMEOUT = 120_000;

interface Center {
  x: number;
  y: number;
}
interface Element {
  role: string;
  label?: string;
  center: Center;
}

describe('apex mcp over stdio, against the embedded virtual iPhone', () => {
  let session: StdioSession;

  beforeAll(async () => {
    // Every toolset: this suite calls tools beyond the default ones (toolsets.spec covers the default).
    session = await startStdioSession(['--toolsets', 'all']);
  }, SPAWN_TIMEOUT);

  afterAll(async () => {
    const { tools } = await session.client.listTools();
    expect(leakedWordsIn(JSON.stringify(tools))).toEqual([]);
    for (const text of session.seen) expect(leakedWordsIn(text)).toEqual([]);
    expect(session.transportErrors).toEqual([]);
    await session.close();
  }, SPAWN_TIMEOUT);

  it('lists the fourteen device tools', async () => {
    const { tools } = await session.client.listTools();
    // The task tools join these when the runtime serves tasks.
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining([
        'list_devices',
        'device_status',
        'describe_screen',
        'take_screenshot',
        'find_text',
        'find_icon',
        'get_ui_tree',
        'tap',
        'swipe',
        'input_text',
        'press_button',
        'launch_app',
        'terminate_app',
        'list_apps',
      ]),
    );
  });

  it('list_devices and device_status describe the phone', async () => {
    const devices = await session.call('list_devices');
    expect(devices.structuredContent).toEqual({
      devices: [{ id: 'iphone-virtual', name: 'Virtual iPhone', platform: 'ios', state: 'online' }],
    });
    expect(textOf(devices)).toMatch(/iphone-virtual/);
    const status = await session.call('device_status', { device: 'iphone-virtual' });
    expect(status.isError).toBeFalsy();
    expect(status.structuredContent).toMatchObject({ id: 'iphone-virtual', screen: { width: 393, height: 852, scale: 3 } });
  });

  it('take_screenshot returns a points-scaled JPEG image by default and a native PNG on request', async () => {
    const shot = await session.call('take_screenshot');
    expect(shot.content.map((c) => c.type)).toEqual(['text', 'image']);
    expect(shot.content[1]).toMatchObject({ mimeType: 'image/jpeg' });
    expect(textOf(shot)).toMatch(/^Screenshot 393×852 JPEG .*1 image pixel = 1 point/);
    const base64 = (shot.content[1] as { data: string }).data;
    expect(Buffer.from(base64, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(base64.length).toBeLessThan(1_000_000);

    const png = await session.call('take_screenshot', { format: 'png', resolution: 'native' });
    expect(png.structuredContent).toMatchObject({ format: 'png', mimeType: 'image/png' });
    expect((png.content[1] as { data: string }).data.length).toBeLessThan(1_000_000);
    expect(textOf(png)).toMatch(/1 point = [\d.]+ image pixels/);
  });

  it('describe_screen, find_text, find_icon and get_ui_tree see the home screen', async () => {
    await session.call('press_button', { button: 'home' });
    const description = await session.call('describe_screen', { includeOcrText: false });
    expect(description.isError).toBeFalsy();
    const elements = (description.structuredContent as { elements: Element[] }).elements;
    expect(elements.map((e) => e.label)).toContain('Settings');
    expect(textOf(description)).toMatch(/Settings/);

    const text = await session.call('find_text', { text: 'Settings' });
    const matches = (text.structuredContent as { matches: { center: Center }[] }).matches;
    expect(matches.length).toBeGreaterThan(0);

    const icon = await session.call('find_icon', { name: 'Settings' });
    expect(icon.isError).toBeFalsy();
    expect((icon.structuredContent as { matches: unknown[] }).matches.length).toBeGreaterThan(0);

    const tree = await session.call('get_ui_tree', { format: 'flat', interactiveOnly: true });
    expect(tree.structuredContent).toMatchObject({ format: 'flat' });
    expect((tree.structuredContent as { nodeCount: number }).nodeCount).toBeGreaterThan(5);
  });

  it('list_apps, launch_app, tap, swipe, input_text and terminate_app drive the phone', async () => {
    expect((await session.call('launch_app', { observe: 'none', appId: 'com.apple.mobilesafari' })).structuredContent).toEqual({
      appId: 'com.apple.mobilesafari',
      launched: true,
    });
    const apps = await session.call('list_apps');
    expect((apps.structuredContent as { apps: { appId: string }[] }).apps.map((a) => a.appId)).toContain('com.apple.mobilesafari');
    const screen = await session.call('describe_screen', { includeOcrText: false });
    const field = (screen.structuredContent as { elements: Element[] }).elements.find((e) => e.role === 'textField');
    expect(field).toBeDefined();
    const tap = await session.call('tap', { x: field?.center.x, y: field?.center.y });
    expect(tap.isError).toBeFalsy();
    const typed = await session.call('input_text', { observe: 'none', text: 'apex' });
    expect(typed.structuredContent).toEqual({ typedCharacters: 4, submitted: false });
    expect(textOf(typed)).not.toMatch(/apex/);
    const after = await session.call('get_ui_tree', { format: 'flat', interactiveOnly: true });
    const nodes = (after.structuredContent as { nodes: { role: string; value?: string }[] }).nodes;
    expect(nodes.find((n) => n.role === 'textField')?.value).toBe('apex');

    const swipe = await session.call('swipe', { observe: 'none', direction: 'up' });
    expect(swipe.structuredContent).toEqual({ direction: 'up' });
    const between = await session.call('swipe', { from: { x: 200, y: 600 }, to: { x: 200, y: 300 }, durationMs: 200 });
    expect(between.isError).toBeFalsy();

    const terminated = await session.call('terminate_app', { observe: 'none', appId: 'com.apple.mobilesafari' });
    expect(terminated.structuredContent).toEqual({ appId: 'com.apple.mobilesafari', wasRunning: true });
    expect((await session.call('press_button', { observe: 'none', button: 'home' })).structuredContent).toEqual({ pressed: 'home' });
  });

  it.each([
    ['an unknown device', 'tap', { device: 'iphone-nope', x: 10, y: 10 }, 'device_not_found', /iphone-virtual/],
    ['an off-screen tap', 'tap', { x: 5000, y: 10 }, 'invalid_argument', /393×852/],
    ['a negative coordinate', 'tap', { x: -1, y: 10 }, 'invalid_argument', /^invalid_argument: Invalid tap arguments: x: /],
    ['an unknown app', 'launch_app', { appId: 'com.example.not.installed' }, 'app_not_found', /com\.example\.not\.installed/],
    ['empty text', 'input_text', { text: '' }, 'invalid_argument', /text: /],
    ['a malformed app id', 'terminate_app', { appId: 'com.x; rm -rf /' }, 'invalid_argument', /appId: /],
    ['the old screenshot option name', 'take_screenshot', { scale: 'native' }, 'invalid_argument', /scale/],
  ])('answers %s (%s) with isError and the right code', async (_what, tool, args, code, pattern) => {
    const result = await session.call(tool, args);
    expect(result.isError).toBe(true);
    expect(errorCodeOf(result)).toBe(code);
    expect(textOf(result)).toMatch(new RegExp(`^${code}: `));
    expect(textOf(result)).toMatch(pattern);
  });

  it('keeps an unknown tool a protocol error', async () => {
    await expect(session.client.callTool({ name: 'format_phone', arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });
});

describe('apex mcp with a configured device that goes offline', () => {
  let phone: VirtualIPhone;
  let session: StdioSession;
  let dir: string;

  beforeAll(async () => {
    phone = await startVirtualIPhone({ port: 0 });
    dir = mkdtempSync(path.join(os.tmpdir(), 'apex-mcp-config-'));
    const config = path.join(dir, 'apex.json');
    writeFileSync(config, JSON.stringify({ devices: [{ id: 'iphone-a', driver: 'wda', url: phone.url }] }));
    session = await startStdioSession(['--config', config]);
  }, SPAWN_TIMEOUT);

  afterAll(async () => {
    for (const text of session.seen) expect(leakedWordsIn(text)).toEqual([]);
    await session.close();
    await phone.close();
    rmSync(dir, { recursive: true, force: true });
  }, SPAWN_TIMEOUT);

  it('answers device_offline without a raw connection error, and recovers', async () => {
    expect((await session.call('tap', { x: 100, y: 100 })).isError).toBeFalsy();
    await phone.faults.goOffline();
    const result = await session.call('tap', { device: 'iphone-a', x: 100, y: 100 });
    expect(result.isError).toBe(true);
    expect(errorCodeOf(result)).toBe('device_offline');
    expect(textOf(result)).toMatch(/^device_offline: .*iphone-a/);
    const status = await session.call('list_devices');
    expect(status.structuredContent).toMatchObject({ devices: [{ id: 'iphone-a', state: 'offline' }] });
    await phone.faults.comeBack();
    // The hub probes an offline device on a back-off schedule; poll (no timing assertion) until it is back.
    await eventually(
      async () => ((await session.call('list_devices')).structuredContent as { devices: { state: string }[] }).devices[0]?.state === 'online',
      { timeoutMs: 30_000, intervalMs: 500, what: 'iphone-a to be online again' },
    );
    expect((await session.call('tap', { device: 'iphone-a', x: 100, y: 100 })).isError).toBeFalsy();
  });
});

describe('apex mcp shutdown', () => {
  /** Spawns `apex mcp` and completes the initialize exchange (a deadline for a slow start, not a timing check). */
  async function startInitialized() {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'apex-mcp-exit-'));
    const child = spawnNode([APEX_BIN, 'mcp'], { env: { ...process.env, APEX_DATA_DIR: dataDir } });
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    child.write(`${JSON.stringify(init)}\n`);
    await child.waitForLine(/"id":1\b/, { timeoutMs: 60_000 });
    return { child, cleanup: () => rmSync(dataDir, { recursive: true, force: true }) };
  }

  it('exits cleanly with code 0 when the client closes stdin, printing nothing but protocol on stdout', async () => {
    const { child, cleanup } = await startInitialized();
    child.endInput();
    expect(await child.waitForExit({ timeoutMs: 60_000 })).toEqual({ code: 0, signal: null });
    expect(child.stdoutLines.length).toBeGreaterThan(0);
    for (const line of child.stdoutLines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    cleanup();
  }, SPAWN_TIMEOUT);

  it('exits cleanly with code 0 on SIGTERM', async () => {
    const { child, cleanup } = await startInitialized();
    child.kill('SIGTERM');
    expect(await child.waitForExit({ timeoutMs: 60_000 })).toEqual({ code: 0, signal: null });
    cleanup();
  }, SPAWN_TIMEOUT);
});
