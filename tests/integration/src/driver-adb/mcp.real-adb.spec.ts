import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { leakedWordsIn } from '@apex/errors/testing';
import { createVirtualAndroid, startAdbd, type AdbDeviceBackend } from '@apex/virtual-device';
import { describeWithRealAdb, startRealAdbServer } from '@apex/virtual-device/testing';
import { errorCodeOf, startStdioSession, textOf, type StdioSession } from '../mcp/stdio-client';
import { ScriptedAndroid } from '../support/scripted-android';

const SPAWN_TIMEOUT = 120_000;

interface AdbMcpStack {
  session: StdioSession;
  close(): Promise<void>;
}

/**
 * The real `apex mcp --config FILE` (stdio, the SDK's real client) with one `adb` device entry for `backend`,
 * reached through the virtual adbd and a private real adb server. Closing scans every text the client saw for
 * driver words.
 */
async function startAdbMcp(backend: AdbDeviceBackend, device: { id: string; name?: string }): Promise<AdbMcpStack> {
  const adbd = await startAdbd({ backend, host: '127.0.0.1' });
  const adb = await startRealAdbServer();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'apex-adb-mcp-'));
  const config = path.join(dir, 'apex.json');
  writeFileSync(config, JSON.stringify({ devices: [{ ...device, driver: 'adb', host: adbd.serial, adbServer: `127.0.0.1:${adb.port}` }] }));
  const session = await startStdioSession(['--config', config, '--toolsets', 'all']);
  return {
    session,
    async close() {
      for (const text of session.seen) expect(leakedWordsIn(text)).toEqual([]);
      expect(session.transportErrors).toEqual([]);
      await session.close();
      await adb.stop();
      await adbd.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The real `apex mcp --config FILE` (stdio, the SDK's real client) with an `adb` device entry: the runtime
 * builds driver-adb, which reaches the (scripted) Android through a real adb server and the virtual adbd.
 * Every text the client sees is scanned for driver words.
 */
describeWithRealAdb('apex mcp over an Android device configured with driver-adb', () => {
  const phone = new ScriptedAndroid();
  let stack: AdbMcpStack;

  beforeAll(async () => {
    stack = await startAdbMcp(phone.backend(), { id: 'pixel', name: 'My Pixel' });
  }, SPAWN_TIMEOUT);
  afterAll(() => stack?.close(), SPAWN_TIMEOUT);

  it('reports the Android device, its screen in dp and the app in front', async () => {
    const status = await stack.session.call('device_status', { device: 'pixel' });
    expect(status.isError).toBeFalsy();
    expect(status.structuredContent).toMatchObject({
      id: 'pixel',
      platform: 'android',
      osVersion: '14',
      screen: { width: 411.43, height: 914.29, scale: 2.625 },
      foregroundApp: { appId: 'com.google.android.apps.nexuslauncher' },
    });
  });

  it('launches by name, goes back with the back button, and reads the tree', async () => {
    const launched = await stack.session.call('launch_app', { device: 'pixel', name: 'chrome' });
    expect(launched.isError).toBeFalsy();
    expect(phone.foreground).toBe('com.android.chrome');
    const back = await stack.session.call('press_button', { device: 'pixel', button: 'back' });
    expect(back.isError).toBeFalsy();
    expect(phone.foreground).toBeNull();
    const tree = await stack.session.call('get_ui_tree', { device: 'pixel' });
    expect(tree.isError).toBeFalsy();
    expect(JSON.stringify(tree.structuredContent)).toContain('"label":"Settings"');
  });

  it('answers an unknown app, untypable text and a pinch with Apex error codes', async () => {
    const unknown = await stack.session.call('launch_app', { device: 'pixel', appId: 'com.example.not.installed' });
    expect(unknown.isError).toBe(true);
    expect(errorCodeOf(unknown)).toBe('app_not_found');
    const typed = await stack.session.call('input_text', { device: 'pixel', text: 'héllo' });
    expect(typed.isError).toBe(true);
    expect(errorCodeOf(typed)).toBe('unsupported_operation');
    const pinched = await stack.session.call('pinch', { device: 'pixel', scale: 2 });
    expect(pinched.isError).toBe(true);
    expect(errorCodeOf(pinched)).toBe('unsupported_operation');
    expect(textOf(pinched)).toMatch(/one finger/);
  });
});

describeWithRealAdb('apex mcp over the virtual Android phone through driver-adb', () => {
  const android = createVirtualAndroid();
  let stack: AdbMcpStack;

  beforeAll(async () => {
    stack = await startAdbMcp(android.backend, { id: 'android' });
  }, SPAWN_TIMEOUT);
  afterAll(() => stack?.close(), SPAWN_TIMEOUT);

  it('describes the home screen, finds an app by its text and taps it open', async () => {
    const description = await stack.session.call('describe_screen', { includeOcrText: false });
    expect(description.isError).toBeFalsy();
    const found = await stack.session.call('find_text', { text: 'Settings' });
    expect(found.isError).toBeFalsy();
    const matches = (found.structuredContent as { matches: { center: { x: number; y: number } }[] }).matches;
    expect(matches.length).toBeGreaterThan(0);
    const tapped = await stack.session.call('tap', { ...matches[0]?.center });
    expect(tapped.isError).toBeFalsy();
    expect(android.phone.focus().pkg).toBe('com.android.settings');
    expect((await stack.session.call('press_button', { button: 'back' })).isError).toBeFalsy();
    expect(android.phone.focus().pkg).not.toBe('com.android.settings');
  });

  it('answers the runtime-permission dialog by its button', async () => {
    expect((await stack.session.call('launch_app', { name: 'Maps' })).isError).toBeFalsy();
    const answered = await stack.session.call('handle_alert', { action: 'press', button: 'Only this time' });
    expect(answered.isError).toBeFalsy();
    expect(android.phone.focus().pkg).toBe('com.google.android.apps.maps');
    const again = await stack.session.call('handle_alert', { action: 'accept' });
    expect(errorCodeOf(again)).toBe('element_not_found');
  });
});
