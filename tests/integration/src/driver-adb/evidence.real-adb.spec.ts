import { ApexError } from '@apex/errors';
import { createAdbDriver, type AdbDriver } from '@apex/driver-adb';
import type { LogEntry, UiNode } from '@apex/port';
import { createVirtualAndroid, startAdbd, type Adbd, type VirtualAndroid } from '@apex/virtual-device';
import { describeWithRealAdb, startRealAdbServer, type RealAdbServer } from '@apex/virtual-device/testing';

/**
 * The device log and crash reports of the virtual Android, read with the REAL adb binary (`adb logcat`) and
 * through driver-adb (a real adb server on a private port, the virtual adbd): the same bytes either way.
 */

const live = (): AbortSignal => AbortSignal.timeout(20_000);
const THREADTIME = /^\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}\s+\d+\s+\d+ [VDIWEF] .+?: /;

async function all(entries: AsyncIterable<LogEntry>): Promise<LogEntry[]> {
  const out: LogEntry[] = [];
  for await (const e of entries) out.push(e);
  return out;
}

function findNode(root: UiNode, label: string): UiNode | undefined {
  if (root.label === label) return root;
  for (const child of root.children ?? []) {
    const found = findNode(child, label);
    if (found) return found;
  }
  return undefined;
}

describeWithRealAdb('the virtual Android’s log and crash reports, through the real adb and driver-adb', () => {
  let adb: RealAdbServer;
  let adbd: Adbd;
  let android: VirtualAndroid;
  let driver: AdbDriver;

  beforeAll(async () => {
    android = createVirtualAndroid();
    adbd = await startAdbd({ backend: android.backend, host: '127.0.0.1' });
    adb = await startRealAdbServer();
    driver = createAdbDriver({ deviceId: 'pixel', server: { host: '127.0.0.1', port: adb.port }, device: { host: adbd.serial } });
    await driver.status(live());
  }, 60_000);

  afterAll(async () => {
    await adb?.stop();
    await adbd?.close();
  }, 30_000);

  it('the real `adb logcat -d -v threadtime` prints the phone’s log in threadtime format', async () => {
    await driver.launchApp('com.android.settings', live());
    const out = await adb.run(['-s', adbd.serial, 'logcat', '-d', '-v', 'threadtime']);
    expect(out.code).toBe(0);
    const lines = out.stdout.toString('utf8').trim().split('\n');
    expect(lines[0]).toBe('--------- beginning of main');
    for (const line of lines.slice(1)) expect(line).toMatch(THREADTIME);
    expect(lines.some((l) => /I ActivityManager: Start proc \d+:com\.android\.settings\//.test(l))).toBe(true);
  });

  it('reads the log through the driver: times, levels, process names learned from ps and from the log', async () => {
    const entries = await all(driver.logs({}, live()));
    const start = entries.find((e) => /ActivityManager: Start proc \d+:com\.android\.settings/.test(e.message));
    expect(start).toMatchObject({ level: 'info', process: 'system_server', pid: 612 });
    expect(Math.abs((start as LogEntry).time - Date.now())).toBeLessThan(10 * 60_000);
    for (let i = 1; i < entries.length; i++) expect((entries[i] as LogEntry).time).toBeGreaterThanOrEqual((entries[i - 1] as LogEntry).time);
  });

  it('narrows at the source: -T from an instant, a minimum level', async () => {
    const before = await all(driver.logs({}, live()));
    const last = before[before.length - 1] as LogEntry;
    android.phone.logcat.add(4999, 'W', 'Probe', 'after the mark');
    android.phone.logcat.add(4999, 'E', 'Probe', 'an error after the mark');
    const since = await all(driver.logs({ sinceMs: last.time + 1 }, live()));
    expect(since.every((e) => e.time > last.time)).toBe(true);
    expect(since.map((e) => e.message)).toEqual(expect.arrayContaining(['Probe: after the mark', 'Probe: an error after the mark']));
    const errors = await all(driver.logs({ minLevel: 'error' }, live()));
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((e) => e.level === 'error' || e.level === 'fault')).toBe(true);
    expect(errors.map((e) => e.message)).toContain('Probe: an error after the mark');
  });

  it('Camera’s “Open camera” crashes it: the FATAL EXCEPTION block in the crash buffer, the app gone, home in front', async () => {
    await driver.launchApp('com.google.android.GoogleCamera', live());
    const button = findNode(await driver.uiTree(live()), 'Open camera');
    expect(button).toBeDefined();
    const b = (button as UiNode).bounds;
    await driver.tap({ x: b.x + b.width / 2, y: b.y + b.height / 2 }, live());
    expect((await driver.status(live())).foregroundApp?.appId).toBe('com.google.android.apps.nexuslauncher');
    expect((await driver.listApps(live())).apps.find((a) => a.appId === 'com.google.android.GoogleCamera')?.running).toBe(false);

    const raw = (await adb.run(['-s', adbd.serial, 'logcat', '-b', 'crash', '-d'])).stdout.toString('utf8');
    expect(raw).toMatch(/--------- beginning of crash\n.* E AndroidRuntime: FATAL EXCEPTION: main\n.* E AndroidRuntime: Process: com\.google\.android\.GoogleCamera, PID: \d+\n.* E AndroidRuntime: java\.lang\.RuntimeException: Fail to connect to camera service\n.* E AndroidRuntime: \tat android\.hardware\.Camera\.<init>/);

    const crashes = await driver.crashReports({ app: 'com.google.android.GoogleCamera' }, live());
    expect(crashes).toHaveLength(1);
    const crash = crashes[0] as (typeof crashes)[number];
    expect(crash).toMatchObject({ app: 'com.google.android.GoogleCamera', exception: 'java.lang.RuntimeException' });
    const report = await driver.crashReport(crash.id, live());
    expect(report).toMatchObject({ reason: 'Fail to connect to camera service' });
    expect(report?.frames[0]).toBe('android.hardware.Camera.<init>(Camera.java:557)');
    expect(report?.text).toContain('FATAL EXCEPTION: main');
    expect(await driver.crashReport('0-0', live())).toBeUndefined();
    expect(await driver.crashReports({ app: 'com.android.settings' }, live())).toEqual([]);

    // The main log tells the same story, with the crashed process still named.
    const log = await all(driver.logs({ sinceMs: crash.time }, live()));
    expect(log.find((e) => e.message.startsWith('AndroidRuntime: FATAL EXCEPTION'))).toMatchObject({ level: 'error', process: 'com.google.android.GoogleCamera', app: 'com.google.android.GoogleCamera' });
    expect(log.map((e) => e.message)).toContain(`ActivityManager: Process com.google.android.GoogleCamera (pid ${report?.text.match(/PID: (\d+)/)?.[1]}) has died: fg  TOP `);
  });

  it('a flood of 10,000 lines: the phone keeps its ring, the driver reads what the ring holds', async () => {
    for (let i = 0; i < 10_000; i++) android.phone.logcat.add(5000, 'D', 'Flood', `line ${i}`);
    const entries = await all(driver.logs({}, live()));
    const flood = entries.filter((e) => e.message.startsWith('Flood: '));
    expect(flood.length).toBeLessThanOrEqual(2000);
    expect(flood[flood.length - 1]?.message).toBe('Flood: line 9999');
  });

  it('a read whose signal aborts ends at once as device_timeout, and the phone keeps answering', async () => {
    const controller = new AbortController();
    const reading = all(driver.logs({}, controller.signal));
    controller.abort();
    const error = await reading.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApexError);
    expect((error as ApexError).code).toBe('device_timeout');
    expect((await all(driver.logs({ minLevel: 'fault' }, live()))).length).toBeGreaterThanOrEqual(0);
    await driver.status(live());
  });
});
