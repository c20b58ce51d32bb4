import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { leakedWordsIn } from '@apex/errors/testing';
import { createVirtualAndroid, startAdbd, type Adbd, type VirtualAndroid } from '@apex/virtual-device';
import { describeWithRealAdb, startRealAdbServer, type RealAdbServer } from '@apex/virtual-device/testing';
import { errorCodeOf, startStdioSession, textOf, type StdioSession } from '../mcp/stdio-client';
import { ScriptedAndroid } from '../support/scripted-android';

const SPAWN_TIMEOUT = 120_000;

/**
 * The real `apex mcp --config FILE` (stdio, the SDK's real client) with an `adb` device entry: the runtime
 * builds driver-adb, which reaches the (scripted) Android through a real adb server and the virtual adbd.
 * Every text the client sees is scanned for driver words.
 */
describeWithRealAdb('apex mcp over an Android device configured with driver-adb', () => {
  let adb: RealAdbServer;
  let adbd: Adbd;
  let phone: ScriptedAndroid;
  let dir: string;
  let session: StdioSession;

  beforeAll(async () => {
    phone = new ScriptedAndroid();
    adbd = await startAdbd({ backend: phone.backend(), host: '127.0.0.1' });
    adb = await startRealAdbServer();
    dir = mkdtempSync(path.join(os.tmpdir(), 'apex-adb-mcp-'));
    const config = path.join(dir, 'apex.json');
    writeFileSync(config, JSON.stringify({ devices: [{ id: 'pixel', name: 'My Pixel', driver: 'adb', host: adbd.serial, adbServer: `127.0.0.1:${adb.port}` }] }));
    session = await startStdioSession(['--config', config]);
  }, SPAWN_TIMEOUT);

  afterAll(async () => {
    if (session) {
      for (const text of session.seen) expect(leakedWordsIn(text)).toEqual([]);
      expect(session.transportErrors).toEqual([]);
      await session.close();
    }
    await adb?.stop();
    await adbd?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, SPAWN_TIMEOUT);

  it('reports the Android device, its screen in dp and the app in front', async () => {
    const status = await session.call('device_status', { device: 'pixel' });
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
    const launched = await session.call('launch_app', { device: 'pixel', name: 'chrome' });
    expect(launched.isError).toBeFalsy();
    expect(phone.foreground).toBe('com.android.chrome');
    const back = await session.call('press_button', { device: 'pixel', button: 'back' });
    expect(back.isError).toBeFalsy();
    expect(phone.foreground).toBeNull();
    const tree = await session.call('get_ui_tree', { device: 'pixel' });
    expect(tree.isError).toBeFalsy();
    expect(JSON.stringify(tree.structuredContent)).toContain('"label":"Settings"');
  });

  it('answers an unknown app, untypable text and a pinch with Apex error codes', async () => {
    const unknown = await session.call('launch_app', { device: 'pixel', appId: 'com.example.not.installed' });
    expect(unknown.isError).toBe(true);
    expect(errorCodeOf(unknown)).toBe('app_not_found');
    const typed = await session.call('input_text', { device: 'pixel', text: 'héllo' });
    expect(typed.isError).toBe(true);
    expect(errorCodeOf(typed)).toBe('unsupported_operation');
    const pinched = await session.call('pinch', { device: 'pixel', scale: 2 });
    expect(pinched.isError).toBe(true);
    expect(errorCodeOf(pinched)).toBe('unsupported_operation');
    expect(textOf(pinched)).toMatch(/one finger/);
  });
});

describeWithRealAdb('apex mcp over the virtual Android phone through driver-adb', () => {
  let adb: RealAdbServer;
  let adbd: Adbd;
  let android: VirtualAndroid;
  let dir: string;
  let session: StdioSession;

  beforeAll(async () => {
    android = createVirtualAndroid();
    adbd = await startAdbd({ backend: android.backend, host: '127.0.0.1' });
    adb = await startRealAdbServer();
    dir = mkdtempSync(path.join(os.tmpdir(), 'apex-adb-mcp-'));
    const config = path.join(dir, 'apex.json');
    writeFileSync(config, JSON.stringify({ devices: [{ id: 'android', driver: 'adb', host: adbd.serial, adbServer: `127.0.0.1:${adb.port}` }] }));
    session = await startStdioSession(['--config', config]);
  }, SPAWN_TIMEOUT);

  afterAll(async () => {
    if (session) {
      for (const text of session.seen) expect(leakedWordsIn(text)).toEqual([]);
      expect(session.transportErrors).toEqual([]);
      await session.close();
    }
    await adb?.stop();
    await adbd?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, SPAWN_TIMEOUT);

  it('describes the home screen, finds an app by its text and taps it open', async () => {
    const description = await session.call('describe_screen', { includeOcrText: false });
    expect(description.isError).toBeFalsy();
    const found = await session.call('find_text', { text: 'Settings' });
    expect(found.isError).toBeFalsy();
    const matches = (found.structuredContent as { matches: { center: { x: number; y: number } }[] }).matches;
    expect(matches.length).toBeGreaterThan(0);
    const tapped = await session.call('tap', { ...matches[0]?.center });
    expect(tapped.isError).toBeFalsy();
    expect(android.phone.focus().pkg).toBe('com.android.settings');
    expect((await session.call('press_button', { button: 'back' })).isError).toBeFalsy();
    expect(android.phone.focus().pkg).not.toBe('com.android.settings');
  });

  it('answers the runtime-permission dialog by its button', async () => {
    expect((await session.call('launch_app', { name: 'Maps' })).isError).toBeFalsy();
    const answered = await session.call('handle_alert', { action: 'press', button: 'Only this time' });
    expect(answered.isError).toBeFalsy();
    expect(android.phone.focus().pkg).toBe('com.google.android.apps.maps');
    const again = await session.call('handle_alert', { action: 'accept' });
    expect(errorCodeOf(again)).toBe('element_not_found');
  });
});
