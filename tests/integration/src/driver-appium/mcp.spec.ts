import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { iosCapabilities, startAppiumServer, type AppiumServer } from '@apex/driver-appium/testing';
import { leakedWordsIn } from '@apex/errors/testing';
import { SETTINGS_BUNDLE_ID, SPRINGBOARD_BUNDLE_ID, startVirtualIPhone, type VirtualIPhone } from '@apex/virtual-device';
import { startStdioSession, type StdioSession } from '../mcp/stdio-client';

const SPAWN_TIMEOUT = 120_000;
const DEVICE = 'iphone';

interface Center {
  x: number;
  y: number;
}

/**
 * What an MCP client sees does not depend on the driver: the real `apex mcp --config FILE` over stdio, once
 * with the phone configured through driver-wda and once through driver-appium (same device id).
 */
describe('apex mcp over a device configured with driver-appium', () => {
  let server: AppiumServer;
  let wdaPhone: VirtualIPhone;
  let appiumPhone: VirtualIPhone;
  let dir: string;
  let overWda: StdioSession;
  let overAppium: StdioSession;

  function writeConfig(name: string, device: Record<string, unknown>): string {
    const file = path.join(dir, name);
    writeFileSync(file, JSON.stringify({ devices: [{ id: DEVICE, name: 'My iPhone', ...device }] }));
    return file;
  }

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'apex-appium-mcp-'));
    [server, wdaPhone, appiumPhone] = await Promise.all([
      startAppiumServer(),
      startVirtualIPhone({ port: 0 }),
      startVirtualIPhone({ port: 0 }),
    ]);
    const wdaConfig = writeConfig('wda.json', { driver: 'wda', url: wdaPhone.url });
    const appiumConfig = writeConfig('appium.json', {
      driver: 'appium',
      serverUrl: server.url,
      capabilities: iosCapabilities(appiumPhone.url),
    });
    [overWda, overAppium] = await Promise.all([
      startStdioSession(['--config', wdaConfig]),
      startStdioSession(['--config', appiumConfig]),
    ]);
  }, SPAWN_TIMEOUT);

  afterAll(async () => {
    for (const session of [overWda, overAppium]) {
      if (!session) continue;
      for (const text of session.seen) expect(leakedWordsIn(text)).toEqual([]);
      expect(session.transportErrors).toEqual([]);
      await session.close();
    }
    await server?.close();
    await wdaPhone?.close();
    await appiumPhone?.close();
    rmSync(dir, { recursive: true, force: true });
  }, SPAWN_TIMEOUT);

  it('tools/list is byte-identical whichever driver is configured', async () => {
    const [direct, viaServer] = await Promise.all([overWda.client.listTools(), overAppium.client.listTools()]);
    expect(direct.tools.length).toBeGreaterThan(10);
    expect(JSON.stringify(viaServer)).toBe(JSON.stringify(direct));
  });

  it('describe_screen, find_text and tap drive the phone through the server', async () => {
    const description = await overAppium.call('describe_screen', { includeOcrText: false });
    expect(description.isError).toBeFalsy();
    const labels = (description.structuredContent as { elements: { label?: string }[] }).elements.map((e) => e.label);
    expect(labels).toContain('Settings');

    const found = await overAppium.call('find_text', { text: 'Settings' });
    expect(found.isError).toBeFalsy();
    const matches = (found.structuredContent as { matches: { center: Center }[] }).matches;
    expect(matches.length).toBeGreaterThan(0);
    expect(appiumPhone.phone.activeApp().bundleId).toBe(SPRINGBOARD_BUNDLE_ID);

    const tapped = await overAppium.call('tap', { device: DEVICE, ...matches[0]?.center });
    expect(tapped.isError).toBeFalsy();
    expect(appiumPhone.phone.activeApp().bundleId).toBe(SETTINGS_BUNDLE_ID);

    const after = await overAppium.call('describe_screen', { includeOcrText: false });
    expect(after.isError).toBeFalsy();
    expect((after.structuredContent as { elements: { label?: string }[] }).elements.map((e) => e.label)).toContain('General');
  });

  it('answers the same result for the same screen as the direct driver', async () => {
    await Promise.all([overWda.call('press_button', { button: 'home' }), overAppium.call('press_button', { button: 'home' })]);
    const [direct, viaServer] = await Promise.all([
      overWda.call('describe_screen', { includeOcrText: false }),
      overAppium.call('describe_screen', { includeOcrText: false }),
    ]);
    expect(viaServer.structuredContent).toEqual(direct.structuredContent);
  });

  it('a device fault reads the same through either driver', async () => {
    const [direct, viaServer] = await Promise.all([
      overWda.call('launch_app', { appId: 'com.example.not.installed' }),
      overAppium.call('launch_app', { appId: 'com.example.not.installed' }),
    ]);
    expect(viaServer.isError).toBe(true);
    expect(viaServer.content).toEqual(direct.content);
    expect(viaServer._meta).toEqual(direct._meta);
  });
});
