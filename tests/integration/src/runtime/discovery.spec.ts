import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { DeviceHub, installApp, launchApp } from '@apex/hub';
import { installStandIns, type StandIns } from '@apex/ios-host/testing';
import { createLogger, createRuntime, DeviceDiscovery } from '@apex/runtime';
import { eventually, xmlPlist } from '@apex/testing';
import { createVirtualAndroid, SETTINGS_BUNDLE_ID, startAdbd, startVirtualIPhone, type Adbd, type VirtualIPhone } from '@apex/virtual-device';
import { describeWithRealAdb, freePort, startRealAdbServer, type RealAdbServer } from '@apex/virtual-device/testing';

const XCODE = { version: '15.4', build: '15F31d' };
const logger = createLogger({ level: 'silent' });
const within = { timeoutMs: 30_000 };

/**
 * Phones found with no device configuration: an Android phone through the real adb server (connected after
 * discovery began), and a booted simulator whose automation agent is built and started through stand-ins for
 * the Mac's tools, the agent being a virtual iPhone. The hub lists them; calls reach them.
 */
describeWithRealAdb('phones found on their own', () => {
  let dir: string;
  let hub: DeviceHub;
  let discovery: DeviceDiscovery | undefined;
  let adb: RealAdbServer;
  let adbd: Adbd | undefined;
  let iphone: VirtualIPhone;
  let tools: StandIns;

  beforeAll(async () => {
    adb = await startRealAdbServer();
    iphone = await startVirtualIPhone({ port: 0 });
  }, 60_000);
  afterAll(async () => {
    await adb?.stop();
    await iphone?.close();
  }, 30_000);
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'apex-discovery-'));
    hub = new DeviceHub({ backgroundProbes: false });
    tools = installStandIns({});
  });
  afterEach(async () => {
    await discovery?.close();
    discovery = undefined;
    await hub.close();
    await adbd?.close();
    adbd = undefined;
    tools.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an Android phone connected after Apex started appears online, takes calls, and goes offline when it stops', async () => {
    discovery = new DeviceDiscovery({ hub, dataDir: dir, logger, env: tools.env, ios: false, config: { devices: [], grids: [], android: { adbServer: `127.0.0.1:${adb.port}` } } });
    discovery.start();
    adbd = await startAdbd({ backend: createVirtualAndroid().backend, host: '127.0.0.1' });
    const id = adbd.serial.replace(':', '-');
    await adb.run(['connect', adbd.serial]);
    await eventually(() => hub.list().some((d) => d.id === id && d.state === 'online' && d.platform === 'android'), { ...within, what: 'the phone listed online' });
    expect(hub.summary(id).name).toBe('Pixel 8');
    await launchApp(hub, id, 'com.android.settings');

    await adbd.close();
    adbd = undefined;
    await eventually(async () => (await hub.probe(id)) === 'offline', { ...within, what: 'the stopped phone offline' });
  }, 60_000);

  it('a phone that never finishes connecting is listed offline with a note, and refuses calls', async () => {
    // A port that accepts but never answers the handshake: the adb server lists that device, not ready.
    const silent = await freePort();
    const { createServer } = await import('node:net');
    const server = createServer((socket) => socket.on('data', () => undefined));
    await new Promise<void>((resolve) => server.listen(silent, '127.0.0.1', resolve));
    try {
      discovery = new DeviceDiscovery({ hub, dataDir: dir, logger, env: tools.env, ios: false, config: { devices: [], grids: [], android: { adbServer: `127.0.0.1:${adb.port}` } } });
      discovery.start();
      void adb.run(['connect', `127.0.0.1:${silent}`]);
      await eventually(() => /^(offline|connecting|authorizing)/.test(hub.list().find((d) => d.id === `127.0.0.1-${silent}`)?.note ?? ''), { ...within, what: 'the phone listed with a note' });
      expect(hub.summary(`127.0.0.1-${silent}`)).toMatchObject({ state: 'offline', platform: 'android' });
      await expect(launchApp(hub, `127.0.0.1-${silent}`, 'com.android.settings')).rejects.toMatchObject({ code: 'device_offline' });
    } finally {
      await adb.run(['disconnect', `127.0.0.1:${silent}`]);
      server.close();
    }
  }, 60_000);

  it('the runtime looks for phones when its configuration says discover (and not when APEX_DISCOVER=0)', async () => {
    const configPath = path.join(dir, 'apex.json');
    writeFileSync(configPath, JSON.stringify({ discover: true, android: { adbServer: `127.0.0.1:${adb.port}` } }));
    adbd = await startAdbd({ backend: createVirtualAndroid().backend, host: '127.0.0.1' });
    await adb.run(['connect', adbd.serial]);
    const id = adbd.serial.replace(':', '-');
    const off = await createRuntime({ configPath, dataDir: path.join(dir, 'off'), logger, env: { ...tools.env, APEX_DISCOVER: '0' } });
    const on = await createRuntime({ configPath, dataDir: path.join(dir, 'on'), logger, env: { ...tools.env, APEX_DISCOVER: '' } });
    try {
      await eventually(() => on.hub.list().some((d) => d.id === id && d.state === 'online'), { ...within, what: 'the phone found by the runtime' });
      expect(off.hub.list()).toEqual([]);
    } finally {
      await off.close();
      await on.close();
    }
  }, 60_000);

  it('a booted simulator is listed while its agent is prepared, then online, and takes calls', async () => {
    const project = path.join(dir, 'WebDriverAgent.xcodeproj');
    mkdirSync(project);
    tools.setScenario({
      xcode: XCODE,
      simulators: { 'com.apple.CoreSimulator.SimRuntime.iOS-17-5': [{ udid: 'SIM-UDID-1', name: 'iPhone 15', state: 'Booted', isAvailable: true }] },
      usb: [{ Udid: '00008110-000A1C2E3E38801E', ProductName: 'iPhone OS', ProductType: 'iPhone14,5', ProductVersion: '17.5.1' }],
      agentUrl: iphone.url,
    });
    discovery = new DeviceDiscovery({ hub, dataDir: dir, logger, env: tools.env, android: false, config: { devices: [], grids: [], ios: { agentProject: project } } });
    const refusals: string[] = [];
    const notes: string[] = [];
    const states = new Set<string>();
    discovery.start();
    await eventually(
      () => {
        const sim = hub.list().find((d) => d.id === 'SIM-UDID-1');
        if (sim?.note) notes.push(sim.note);
        if (sim?.note && sim.state === 'preparing') {
          // A call while it is prepared says so, with the phase, instead of failing as an unknown lab's phone.
          void launchApp(hub, 'SIM-UDID-1', SETTINGS_BUNDLE_ID).catch((error: { code?: string; message?: string }) => refusals.push(`${error.code}: ${error.message}`));
        }
        if (sim) states.add(sim.state);
        return sim?.state === 'online';
      },
      { ...within, intervalMs: 5, what: 'the simulator online' },
    );
    expect(notes.length).toBeGreaterThan(0);
    expect(notes.every((n) => n.startsWith('preparing: '))).toBe(true);
    expect(states).toContain('preparing');
    await eventually(() => refusals.length > 0, { ...within, what: 'a refused call while preparing' });
    expect(refusals[0]).toMatch(/^device_offline: Device SIM-UDID-1 is not ready: preparing: /);
    await launchApp(hub, 'SIM-UDID-1', SETTINGS_BUNDLE_ID);
    expect(iphone.phone.activeApp().bundleId).toBe(SETTINGS_BUNDLE_ID);
    // Its log and crash reports come from Xcode's tools on this Mac.
    expect(['logs', 'crashReports', 'crashReport'].every((a) => hub.supports('SIM-UDID-1', a as 'logs'))).toBe(true);
    // The USB iPhone cannot be signed without a team: listed offline, the note names the fix.
    await eventually(() => /ios\.teamId/.test(hub.list().find((d) => d.id === '00008110-000A1C2E3E38801E')?.note ?? ''), { ...within, what: 'the iPhone listed with its fix' });
    expect(hub.summary('00008110-000A1C2E3E38801E').state).toBe('offline');
    await expect(launchApp(hub, '00008110-000A1C2E3E38801E', SETTINGS_BUNDLE_ID)).rejects.toMatchObject({ code: 'device_offline', message: expect.stringMatching(/ios\.teamId/) });
  }, 60_000);
  it('a USB iPhone comes online through libimobiledevice where go-ios is not installed (listed by idevice_id, forwarded by iproxy)', async () => {
    const project = path.join(dir, 'WebDriverAgent.xcodeproj');
    mkdirSync(project, { recursive: true });
    const udid = '00008110-000A1C2E3E38801E';
    tools.remove();
    tools = installStandIns(
      { xcode: XCODE, usb: [{ Udid: udid, ProductName: 'iPhone OS', ProductType: 'iPhone14,5', ProductVersion: '17.5.1', DeviceName: "Ada's iPhone" }], deviceUrl: iphone.url },
      { only: ['xcrun', 'xcodebuild', 'idevice_id', 'ideviceinfo', 'iproxy'] },
    );
    discovery = new DeviceDiscovery({ hub, dataDir: dir, logger, env: tools.env, android: false, config: { devices: [], grids: [], ios: { agentProject: project, teamId: 'ABCDE12345' } } });
    discovery.start();
    await eventually(() => hub.list().find((d) => d.id === udid)?.state === 'online', { ...within, what: 'the USB iPhone online' });
    expect(hub.summary(udid).name).toBe("Ada's iPhone");
    await launchApp(hub, udid, SETTINGS_BUNDLE_ID);
    expect(iphone.phone.activeApp().bundleId).toBe(SETTINGS_BUNDLE_ID);
    const iproxy = tools.calls().filter((c) => c.tool === 'iproxy');
    expect(iproxy).toHaveLength(1);
    expect(iproxy[0]?.args).toEqual([expect.stringMatching(/^\d+:8100$/), '-u', udid]);
  }, 60_000);

  it('a USB iPhone (with a team) comes online and installs builds through go-ios', async () => {
    const project = path.join(dir, 'WebDriverAgent.xcodeproj');
    mkdirSync(project, { recursive: true });
    const udid = '00008110-000A1C2E3E38801E';
    tools.setScenario({ xcode: XCODE, usb: [{ Udid: udid, ProductName: 'iPhone OS', ProductType: 'iPhone14,5', ProductVersion: '17.5.1' }], deviceUrl: iphone.url });
    discovery = new DeviceDiscovery({ hub, dataDir: dir, logger, env: tools.env, android: false, config: { devices: [], grids: [], ios: { agentProject: project, teamId: 'ABCDE12345' } } });
    discovery.start();
    await eventually(() => hub.list().find((d) => d.id === udid)?.state === 'online', { ...within, what: 'the USB iPhone online' });
    const app = path.join(dir, 'Demo.app');
    mkdirSync(app);
    writeFileSync(path.join(app, 'Info.plist'), xmlPlist({ CFBundleIdentifier: 'dev.apex.Demo', CFBundleName: 'Demo' }));
    expect(await installApp(hub, udid, { path: app, kind: 'app', appId: 'dev.apex.Demo', name: 'Demo' })).toEqual({ replaced: false });
    expect(tools.calls().filter((c) => c.tool === 'ios' && c.args[0] === 'install').map((c) => c.args)).toEqual([['install', `--path=${app}`, `--udid=${udid}`]]);
  }, 60_000);
});
