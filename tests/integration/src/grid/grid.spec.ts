import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createAppiumDriver } from '@apex/driver-appium';
import { iosCapabilities, startAppiumServer, type AppiumServer } from '@apex/driver-appium/testing';
import { isApexError } from '@apex/errors';
import type { UiNode } from '@apex/port';
import { describeDriverContract } from '@apex/hub/testing';
import { createLogger, createRuntime, type Runtime } from '@apex/runtime';
import { eventually } from '@apex/testing';
import { startSeleniumGrid, type GridNode, type SeleniumGrid } from '@apex/testing/selenium-grid';
import { startVirtualIPhone, type VirtualIPhone } from '@apex/virtual-device';
import { VIRTUAL_IPHONE_CONTRACT_APPS } from '../support/contract-apps';

/**
 * A device lab on this machine: a real Selenium Grid 4 hub, two relay nodes, each in front of its own Appium
 * server and its own virtual iPhone. Apex discovers the phones from the hub and drives them through it.
 */
jest.setTimeout(240_000);

interface LabPhone {
  udid: string;
  iphone: VirtualIPhone;
  appium: AppiumServer;
  node: GridNode;
}

let grid: SeleniumGrid;
const phones: LabPhone[] = [];
let dataDir: string;
let configPath: string;
let apex: Runtime;

async function startRuntime(): Promise<Runtime> {
  // Refreshes are triggered by the tests (refresh()); the period only keeps a forgotten test from hanging.
  return createRuntime({ configPath, dataDir: mkdtempSync(path.join(dataDir, 'apex-')), env: {}, logger: createLogger({ level: 'silent' }) });
}

function find(node: UiNode, label: string): UiNode | undefined {
  if (node.label === label) return node;
  for (const child of node.children ?? []) {
    const found = find(child, label);
    if (found) return found;
  }
  return undefined;
}

/** Taps the home-screen icon `label` on a device, through the grid. */
async function tapIcon(runtime: Runtime, deviceId: string, label: string): Promise<void> {
  const tree = await runtime.hub.run(deviceId, 'read the screen elements', (driver, signal) => driver.uiTree(signal), { slow: true });
  const icon = find(tree, label);
  if (!icon) throw new Error(`no "${label}" on ${deviceId}`);
  const { x, y, width, height } = icon.bounds;
  await runtime.hub.run(deviceId, 'tap', (driver, signal) => driver.tap({ x: x + width / 2, y: y + height / 2 }, signal));
}

function stateOf(runtime: Runtime, deviceId: string): string {
  return runtime.hub.summary(deviceId).state;
}

async function errorOf(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'apex-grid-test-'));
  const [hub, ...servers] = await Promise.all([
    startSeleniumGrid({ sessionRequestTimeoutS: 5, healthcheckIntervalS: 5 }),
    startAppiumServer(),
    startAppiumServer(),
    startVirtualIPhone({ port: 0, deviceName: 'Lab iPhone A' }),
    startVirtualIPhone({ port: 0, deviceName: 'Lab iPhone B' }),
  ]);
  grid = hub;
  const [appiumA, appiumB, iphoneA, iphoneB] = servers as [AppiumServer, AppiumServer, VirtualIPhone, VirtualIPhone];
  const lab = [
    { udid: 'lab-iphone-a', name: 'Lab iPhone A', iphone: iphoneA, appium: appiumA },
    { udid: 'lab-iphone-b', name: 'Lab iPhone B', iphone: iphoneB, appium: appiumB },
  ];
  // One node at a time: two JVMs starting at once on two cores only slow each other down.
  for (const { udid, name, iphone, appium } of lab) {
    const { 'appium:skipLogCapture': _skip, ...caps } = iosCapabilities(iphone.url, udid);
    const node = await grid.addRelayNode(appium.url, { ...caps, 'appium:deviceName': name });
    phones.push({ udid, iphone, appium, node });
  }
  configPath = path.join(dataDir, 'apex.json');
  writeFileSync(
    configPath,
    JSON.stringify({
      grids: [{ id: 'lab', url: grid.url, match: { platformName: 'iOS' }, capabilities: { 'appium:skipLogCapture': true }, refreshMs: 600_000, forgetAfterMisses: 50 }],
    }),
  );
  apex = await startRuntime();
});

afterAll(async () => {
  await apex?.close();
  await grid?.close();
  await Promise.all(phones.flatMap((phone) => [phone.appium.close(), phone.iphone.close()]));
  rmSync(dataDir, { recursive: true, force: true });
});

// First in the file, while Apex holds no session on phone B yet (its sessions are made on the first call):
// the whole driver contract, every command relayed by the hub to phone B's node, with the wrong-phone check on.
describeDriverContract('driver-appium through a Selenium Grid 4 hub', async () => {
  const b = phones[1];
  const { 'appium:skipLogCapture': _skip, ...stereotype } = iosCapabilities(b.iphone.url, b.udid);
  const driver = createAppiumDriver({
    deviceId: 'contract-device',
    serverUrl: grid.url,
    capabilities: { ...stereotype, 'appium:deviceName': 'Lab iPhone B', 'appium:skipLogCapture': true },
    expectedUdid: b.udid,
  });
  return {
    driver,
    ...VIRTUAL_IPHONE_CONTRACT_APPS,
    // The hub's DeviceHub closed the driver (its session, so the slot is free again); the lab tests start at home.
    close: async () => {
      b.iphone.phone.launchApp('com.apple.springboard');
    },
  };
});

it('lists both phones of the lab, named from their slots', () => {
  const listed = apex.hub.list().map(({ id, name, platform, state }) => ({ id, name, platform, state }));
  expect(listed).toEqual(
    expect.arrayContaining([
      { id: 'lab-iphone-a', name: 'Lab iPhone A', platform: 'ios', state: 'online' },
      { id: 'lab-iphone-b', name: 'Lab iPhone B', platform: 'ios', state: 'online' },
    ]),
  );
  expect(listed).toHaveLength(2);
  expect(apex.devices.map((device) => device.id).sort()).toEqual(['lab-iphone-a', 'lab-iphone-b']);
});

it('taps on each phone land on that phone only, in parallel', async () => {
  const [a, b] = phones;
  await Promise.all([tapIcon(apex, 'lab-iphone-a', 'Settings'), tapIcon(apex, 'lab-iphone-b', 'Safari')]);
  expect(a.iphone.phone.activeApp().bundleId).toBe('com.apple.Preferences');
  expect(b.iphone.phone.activeApp().bundleId).toBe('com.apple.mobilesafari');
  // Back home on both, through the grid.
  await Promise.all(['lab-iphone-a', 'lab-iphone-b'].map((id) => apex.hub.run(id, 'home', (driver, signal) => driver.pressButton('home', signal))));
  expect(a.iphone.phone.activeApp().bundleId).toBe('com.apple.springboard');
});

it('reads the screen through the grid: size, screenshot, status', async () => {
  const screen = await apex.hub.screen('lab-iphone-a');
  expect(screen.width).toBeGreaterThan(0);
  const shot = await apex.hub.run('lab-iphone-b', 'screenshot', (driver, signal) => driver.screenshot(signal), { slow: true });
  expect(shot.png.subarray(1, 4).toString('latin1')).toBe('PNG');
  expect(shot.width).toBeGreaterThan(0);
  const status = await apex.hub.run('lab-iphone-a', 'status', (driver, signal) => driver.status(signal));
  expect(status).toBeDefined();
});

it('a second Apex process asking for a phone the first holds gets device_busy', async () => {
  await apex.grids[0].refresh();
  const second = await startRuntime();
  try {
    expect(stateOf(second, 'lab-iphone-a')).toBe('busy');
    const error = await errorOf(second.hub.run('lab-iphone-a', 'tap', (driver, signal) => driver.tap({ x: 10, y: 10 }, signal)));
    expect(isApexError(error) && error.code).toBe('device_busy');
    expect(isApexError(error) && error.retryable).toBe(true);
    // The first process still holds its phone and works on it.
    expect(stateOf(apex, 'lab-iphone-a')).toBe('online');
    await tapIcon(apex, 'lab-iphone-a', 'Settings');
    expect(phones[0].iphone.phone.activeApp().bundleId).toBe('com.apple.Preferences');
  } finally {
    await second.close();
  }
});

it('a stopped node makes its phone offline at the next read, the other keeps working, and it comes back', async () => {
  const [a] = phones;
  await a.node.stop();
  // No refresh is asked for (the period is 10 minutes): a failed command itself re-reads the hub (at most once a
  // second). The hub may not know yet that the node is gone when the first failure reads it, so commands are tried
  // until a read after a failure finds it out.
  const tap = () => apex.hub.run('lab-iphone-a', 'tap', (driver, signal) => driver.tap({ x: 10, y: 10 }, signal));
  await eventually(
    async () => {
      if (stateOf(apex, 'lab-iphone-a') === 'offline') return true;
      expect(isApexError(await errorOf(tap()))).toBe(true);
      return false;
    },
    { timeoutMs: 30_000, intervalMs: 1_100, what: 'phone A offline after its failed commands' },
  );
  const error = await errorOf(apex.hub.run('lab-iphone-a', 'tap', (driver, signal) => driver.tap({ x: 10, y: 10 }, signal)));
  expect(isApexError(error) && error.code).toBe('device_offline');
  await tapIcon(apex, 'lab-iphone-b', 'Settings');
  expect(phones[1].iphone.phone.activeApp().bundleId).toBe('com.apple.Preferences');

  await a.node.start();
  await eventually(async () => {
    await apex.grids[0].refresh();
    return stateOf(apex, 'lab-iphone-a') === 'online';
  }, { timeoutMs: 60_000, intervalMs: 500, what: "the restarted node back in the lab" });
  // The restarted node lost the old session: the next call makes a new one through the hub.
  await apex.hub.run('lab-iphone-a', 'home', (driver, signal) => driver.pressButton('home', signal));
  expect(a.iphone.phone.activeApp().bundleId).toBe('com.apple.springboard');
});

it('a phone whose automation server restarted is usable again within one health check, without restarting Apex', async () => {
  const [a] = phones;
  const home = () => apex.hub.run('lab-iphone-a', 'home', (driver, signal) => driver.pressButton('home', signal));
  await home();
  expect(stateOf(apex, 'lab-iphone-a')).toBe('online');
  // The server restarts at the same address: it forgot Apex's session, which the hub still holds on the slot.
  const port = Number(new URL(a.appium.url).port);
  await a.appium.close();
  a.appium = await startAppiumServer({ port });
  // The node is seen down then up again by the hub's health check (5 s here); meanwhile calls may fail.
  await eventually(
    async () => {
      await apex.grids[0].refresh();
      return home().then(
        () => true,
        () => false,
      );
    },
    { timeoutMs: 60_000, intervalMs: 1_000, what: 'a call on phone A after its server restarted' },
  );
  // The slot may still list the lost session: it is Apex's own, not another client's.
  expect(stateOf(apex, 'lab-iphone-a')).toBe('online');
  await tapIcon(apex, 'lab-iphone-a', 'Settings');
  expect(a.iphone.phone.activeApp().bundleId).toBe('com.apple.Preferences');
  await home();
});

it('closes a session the server opened on another phone than asked, and reports device_error without acting', async () => {
  const [a] = phones;
  a.iphone.phone.launchApp('com.apple.springboard');
  // The server answers with phone A's udid while this device expects another one (a hub routing it wrongly).
  const driver = createAppiumDriver({
    deviceId: 'lab-iphone-z',
    serverUrl: a.appium.url,
    capabilities: iosCapabilities(a.iphone.url, a.udid),
    expectedUdid: 'lab-iphone-z',
  });
  try {
    const error = await errorOf(driver.launchApp('com.apple.Preferences', AbortSignal.timeout(60_000)));
    expect(isApexError(error) && error.code).toBe('device_error');
    expect(isApexError(error) && error.message).toMatch(/another phone/);
    expect(driver.sessionId).toBeUndefined();
    expect(a.iphone.phone.activeApp().bundleId).toBe('com.apple.springboard');
  } finally {
    await driver.close(AbortSignal.timeout(10_000));
  }
});

it('two clients asking for one free phone at the same instant: one gets it, the other device_busy', async () => {
  const b = phones[1];
  await apex.hub.unregister('lab-iphone-b'); // frees phone B's slot (its session is ended)
  const { 'appium:skipLogCapture': _skip, ...stereotype } = iosCapabilities(b.iphone.url, b.udid);
  const client = (deviceId: string) =>
    createAppiumDriver({ deviceId, serverUrl: grid.url, capabilities: { ...stereotype, 'appium:deviceName': 'Lab iPhone B', 'appium:skipLogCapture': true }, expectedUdid: b.udid, sessionStartTimeoutMs: 60_000 });
  const clients = [client('first'), client('second')];
  try {
    // The hub queues the loser's session request until its session request timeout (5 s here), then refuses it.
    const outcomes = await Promise.allSettled(clients.map((driver) => driver.pressButton('home', AbortSignal.timeout(60_000))));
    const codes = outcomes.map((outcome) => (outcome.status === 'fulfilled' ? 'ok' : isApexError(outcome.reason) ? outcome.reason.code : String(outcome.reason)));
    expect(codes.sort()).toEqual(['device_busy', 'ok']);
    const loser = outcomes.findIndex((outcome) => outcome.status === 'rejected');
    expect(clients[loser].sessionId).toBeUndefined();
    expect(clients[1 - loser].sessionId).toBeDefined();
  } finally {
    await Promise.all(clients.map((driver) => driver.close(AbortSignal.timeout(10_000))));
  }
});
