import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { installStandIns, type StandIns } from '@apex/ios-host/testing';
import { spawnNode } from '@apex/testing';
import { createVirtualAndroid, startAdbd, type Adbd } from '@apex/virtual-device';
import { describeWithRealAdb, freePort, startRealAdbServer, type RealAdbServer } from '@apex/virtual-device/testing';

const APEX = path.resolve(__dirname, '../../../../apps/cli/bin/apex.js');
const XCODE = { version: '15.4', build: '15F31d' };

/**
 * `apex doctor` as a person runs it, on three machines: one with nothing, one with Xcode but no signing team
 * for its USB iPhone, and one with phones ready (a booted simulator, an Android phone through a real adb server).
 * The Mac's tools are stand-ins in their real output formats (@apex/ios-host/testing); adb is the real one.
 */
describeWithRealAdb('apex doctor', () => {
  let dir: string;
  let tools: StandIns;
  let adb: RealAdbServer;
  let adbd: Adbd | undefined;

  beforeAll(async () => {
    adb = await startRealAdbServer();
  }, 60_000);
  afterAll(async () => {
    await adb?.stop();
  }, 30_000);
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'apex-doctor-'));
    tools = installStandIns({});
  });
  afterEach(async () => {
    await adbd?.close();
    adbd = undefined;
    tools.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  async function doctor(config: Record<string, unknown>): Promise<{ code: number | null; stdout: string }> {
    const configPath = path.join(dir, 'apex.json');
    writeFileSync(configPath, JSON.stringify({ devices: [{ id: 'lab-phone', driver: 'wda', url: 'http://127.0.0.1:9' }], ...config }));
    const run = spawnNode([APEX, 'doctor', '--config', configPath], { env: { ...tools.env, APEX_DATA_DIR: path.join(dir, 'data') } });
    const { code } = await run.waitForExit({ timeoutMs: 60_000 });
    return { code, stdout: run.stdout() };
  }

  /** A machine with a booted simulator (and Xcode, the agent project, a team) and an Android phone: its config, the phone's serial. */
  async function phonesReady(): Promise<{ config: Record<string, unknown>; serial: string }> {
    const project = path.join(dir, 'WebDriverAgent.xcodeproj');
    mkdirSync(project);
    tools.setScenario({
      xcode: XCODE,
      simulators: { 'com.apple.CoreSimulator.SimRuntime.iOS-17-5': [{ udid: 'SIM-1', name: 'iPhone 15', state: 'Booted', isAvailable: true }] },
      usb: [],
    });
    const android = await startAdbd({ backend: createVirtualAndroid().backend, host: '127.0.0.1' });
    adbd = android;
    await adb.run(['connect', android.serial]);
    return { config: { ios: { agentProject: project, teamId: 'ABCDE12345' }, android: { adbServer: `127.0.0.1:${adb.port}` } }, serial: android.serial };
  }

  it('on a machine with nothing: every missing piece with its fix, and exit 1', async () => {
    const { code, stdout } = await doctor({ android: { adbServer: `127.0.0.1:${await freePort()}` } });
    expect(code).toBe(1);
    expect(stdout).toMatch(/^ok {4}Node\.js: /m);
    expect(stdout).toMatch(/^MISS {2}Xcode: not found\n {6}→ iPhones and simulators need a Mac with Xcode/m);
    expect(stdout).toMatch(/^MISS {2}USB iPhones: no USB device service \(usbmuxd\)/m);
    expect(stdout).toMatch(/^MISS {2}Android device service: nothing answers at 127\.0\.0\.1:\d+\n {6}→ Only needed for Android phones/m);
    expect(stdout).toMatch(/No phone is ready yet/);
  });

  it('with Xcode but no team: the USB iPhone is found and the fix names the team setting', async () => {
    const project = path.join(dir, 'WebDriverAgent.xcodeproj');
    mkdirSync(project);
    tools.setScenario({ xcode: XCODE, usb: [{ Udid: '00008110-000A1C2E3E38801E', ProductName: 'iPhone OS', ProductType: 'iPhone14,5', ProductVersion: '17.5.1' }] });
    const { code, stdout } = await doctor({ ios: { agentProject: project }, android: { adbServer: `127.0.0.1:${adb.port}` } });
    expect(code).toBe(1);
    expect(stdout).toMatch(/^ok {4}Xcode: 15\.4$/m);
    expect(stdout).toMatch(new RegExp(`^ok {4}Automation agent project: ${project.replace(/[.]/g, '\\.')}$`, 'm'));
    expect(stdout).toMatch(/^MISS {2}iPhone 00008110-000A1C2E3E38801E: iPhone14,5, iOS 17\.5\.1\n {6}→ Set ios\.teamId in the config/m);
    expect(stdout).toMatch(/^ok {4}Android device service: 127\.0\.0\.1:\d+, 0 device\(s\)$/m);
  });

  it('with libimobiledevice and no go-ios: the USB iPhone is found through it and usable', async () => {
    const project = path.join(dir, 'WebDriverAgent.xcodeproj');
    mkdirSync(project);
    tools.remove();
    tools = installStandIns(
      { xcode: XCODE, simulators: {}, usb: [{ Udid: '00008110-000A1C2E3E38801E', ProductName: 'iPhone OS', ProductType: 'iPhone14,5', ProductVersion: '17.5.1', DeviceName: "Ada's iPhone" }] },
      { only: ['xcrun', 'xcodebuild', 'idevice_id', 'ideviceinfo', 'iproxy'] },
    );
    const { code, stdout } = await doctor({ ios: { agentProject: project, teamId: 'ABCDE12345' }, android: { adbServer: `127.0.0.1:${await freePort()}` } });
    expect(stdout).toMatch(/^ok {4}USB iPhones: 1 found through libimobiledevice$/m);
    expect(stdout).toMatch(/^ok {4}iPhone Ada's iPhone \(00008110-000A1C2E3E38801E\): iPhone14,5, iOS 17\.5\.1 \(Developer Mode and trust are checked when Apex prepares it\)$/m);
    expect(stdout).toMatch(/^1 phone\(s\) ready\.$/m);
    expect(code).toBe(0);
    expect(tools.calls().map((c) => c.tool)).toEqual(expect.arrayContaining(['idevice_id', 'ideviceinfo']));
  });

  it('with phones ready: the simulator and the Android phone are usable, and exit 0', async () => {
    const { config, serial } = await phonesReady();
    const { code, stdout } = await doctor(config);
    expect(stdout).toMatch(/^ok {4}Simulator iPhone 15: iOS 17\.5, SIM-1 \(the automation agent is built on first use\)$/m);
    expect(stdout).toMatch(new RegExp(`^ok {4}Android Pixel 8 \\(${serial.replace(/[.]/g, '\\.')}\\): ready$`, 'm'));
    expect(stdout).toMatch(/^2 phone\(s\) ready\.$/m);
    expect(code).toBe(0);
  });

  it('apex devices --discover --no-virtual lists the phones found on this machine, and no virtual one', async () => {
    const configPath = path.join(dir, 'apex.json');
    const { config, serial } = await phonesReady();
    writeFileSync(configPath, JSON.stringify({ devices: [], discover: true, ...config }));
    const run = spawnNode([APEX, 'devices', '--discover', '--no-virtual', '--json', '--config', configPath], {
      env: { ...tools.env, APEX_DATA_DIR: path.join(dir, 'data') },
    });
    const { code } = await run.waitForExit({ timeoutMs: 90_000 });
    expect(code).toBe(0);
    const { devices } = JSON.parse(run.stdout()) as { devices: Array<{ id: string; platform: string; state: string; note?: string }> };
    // The adb server also lists (offline) the phones of the tests before this one: this test's phone is by its serial.
    expect(devices.find((d) => d.platform === 'android' && d.id === serial.replace(/[^\w.-]/g, '-'))).toMatchObject({ state: 'online' });
    // The simulator is listed while its automation agent is prepared (or with the reason it is not ready).
    expect(devices.find((d) => d.id.includes('SIM-1'))).toMatchObject({ platform: 'ios' });
    expect(devices.map((d) => d.id)).not.toEqual(expect.arrayContaining(['iphone-virtual']));
    expect(devices.map((d) => d.id)).not.toEqual(expect.arrayContaining(['android-virtual']));
    expect(devices.every((d) => d.platform === 'android' || d.id.includes('SIM-1'))).toBe(true);
  }, 120_000);
});
