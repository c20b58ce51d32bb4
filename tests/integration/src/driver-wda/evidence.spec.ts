import { createWdaDriver, type WdaDriver } from '@apex/driver-wda';
import { virtualSimulatorControl } from '@apex/runtime';
import { centerOf, type LogEntry, type UiNode } from '@apex/port';
import { CAMERA_BUNDLE_ID, OS_LOG_CAPACITY, SPRINGBOARD_BUNDLE_ID, startVirtualIPhone, type VirtualIPhone, type VirtualPhone } from '@apex/virtual-device';

/**
 * The virtual iPhone's log and crash reports through driver-wda: its actions over real HTTP (the agent's
 * protocol), its diagnostics from the phone's in-process simulator control (`log show --style ndjson` lines, `.ips`
 * files), as a Mac's simulator tools would give them. The agent itself has no route for either.
 */

const live = (): AbortSignal => AbortSignal.timeout(20_000);

async function all(entries: AsyncIterable<LogEntry> | undefined): Promise<LogEntry[]> {
  if (!entries) throw new Error('the driver has no log');
  const out: LogEntry[] = [];
  for await (const e of entries) out.push(e);
  return out;
}

function find(node: UiNode, label: string): UiNode | undefined {
  if (node.label === label) return node;
  for (const child of node.children) {
    const hit = find(child, label);
    if (hit) return hit;
  }
  return undefined;
}

describe('driver-wda: the virtual iPhone’s log and crash reports', () => {
  let iphone: VirtualIPhone;
  let driver: WdaDriver;

  beforeAll(async () => {
    iphone = await startVirtualIPhone({ port: 0 });
    driver = createWdaDriver({ deviceId: 'iphone', url: iphone.url, simulator: virtualSimulatorControl(iphone, 'iphone') });
  });
  afterAll(async () => {
    await driver.close(live());
    await iphone.close();
  });

  it('the log source speaks `log show --style ndjson`: one JSON object a line with Apple’s fields', async () => {
    await driver.launchApp('com.apple.Preferences', live());
    const lines: string[] = [];
    for await (const line of iphone.diagnostics.logLines(undefined, live())) lines.push(line);
    const launch = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((e) => String(e['eventMessage']).includes('app<com.apple.Preferences>'));
    expect(launch).toMatchObject({ eventType: 'logEvent', messageType: 'Default', processImagePath: '/System/Library/CoreServices/SpringBoard.app/SpringBoard', subsystem: 'com.apple.runningboard' });
    expect(launch?.['timestamp']).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+0000$/);
  });

  it('reads launches, terminations and an app’s own lines as entries, oldest first, from an instant on', async () => {
    const mark = Date.now();
    await driver.launchApp(CAMERA_BUNDLE_ID, live());
    await driver.terminateApp(CAMERA_BUNDLE_ID, live());
    const entries = await all(driver.logs?.({ sinceMs: mark }, live()));
    expect(entries.every((e) => e.time >= mark)).toBe(true);
    const messages = entries.map((e) => e.message);
    expect(messages.some((m) => /app<com\.apple\.camera>:\d+\] Launch succeeded/.test(m))).toBe(true);
    expect(entries.find((e) => e.message === 'Viewfinder shown; no capture device')).toMatchObject({ level: 'info', process: 'Camera', app: CAMERA_BUNDLE_ID });
    expect(messages.some((m) => /app<com\.apple\.camera>:\d+\] Terminating/.test(m))).toBe(true);
    expect(entries.find((e) => /Terminating/.test(e.message))).toMatchObject({ process: 'SpringBoard', pid: 58 });
  });

  it('Camera’s “Open Camera” crashes it: an .ips report with the real fields, the app gone, home in front', async () => {
    await driver.launchApp(CAMERA_BUNDLE_ID, live());
    const button = find(await driver.uiTree(live()), 'Open Camera');
    expect(button).toBeDefined();
    await driver.tap(centerOf((button as UiNode).bounds), live());
    expect((await driver.foregroundApp(live()))?.appId).toBe(SPRINGBOARD_BUNDLE_ID);
    expect(iphone.phone.appState(CAMERA_BUNDLE_ID)).toBe(1);

    const [file] = await iphone.diagnostics.crashFiles(live());
    expect(file?.name).toMatch(/^Camera-\d{4}-\d{2}-\d{2}-\d{6}\.ips$/);
    const [headerLine, ...rest] = (file?.text ?? '').split('\n');
    expect(JSON.parse(headerLine as string)).toMatchObject({ bug_type: '309', bundleID: CAMERA_BUNDLE_ID, app_name: 'Camera' });
    expect(JSON.parse(rest.join('\n'))).toMatchObject({ exception: { type: 'EXC_CRASH', signal: 'SIGABRT' }, faultingThread: 0, procName: 'Camera' });

    const crashes = (await driver.crashReports?.({ app: CAMERA_BUNDLE_ID }, live())) ?? [];
    expect(crashes).toEqual([{ id: file?.name, app: CAMERA_BUNDLE_ID, time: expect.any(Number), exception: 'EXC_CRASH' }]);
    const report = await driver.crashReport?.(file?.name as string, live());
    expect(report).toMatchObject({ signal: 'SIGABRT', reason: "*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'No capture device is available on this phone'" });
    expect(report?.frames.slice(0, 2)).toEqual(['libsystem_kernel.dylib __pthread_kill + 8', 'libsystem_c.dylib abort + 180']);
    expect(report?.frames).toContain('Camera -[CAMViewfinderViewController openCamera:] + 36');
    expect(await driver.crashReport?.('nope.ips', live())).toBeUndefined();

    const log = await all(driver.logs?.({ sinceMs: crashes[0]?.time }, live()));
    expect(log.find((e) => e.level === 'fault')).toMatchObject({ process: 'Camera', app: CAMERA_BUNDLE_ID, message: expect.stringContaining('NSInternalInconsistencyException') });
  });

  it('a flood of 10,000 lines: the phone keeps its ring, a read yields at most what it keeps, newest last', async () => {
    const phone = iphone.phone as VirtualPhone;
    for (let i = 0; i < 10_000; i++) phone.osLog.add({ pid: 900, process: 'Flood', subsystem: 'com.example.flood', category: 'x', type: 'Debug', message: `line ${i}` });
    const entries = await all(driver.logs?.({}, live()));
    expect(entries.length).toBe(OS_LOG_CAPACITY);
    expect(entries[entries.length - 1]).toMatchObject({ level: 'debug', process: 'Flood', message: 'line 9999' });
  });

  it('a driver with no simulator control has no log ability (the hub answers unsupported_operation)', () => {
    const bare = createWdaDriver({ deviceId: 'bare', url: iphone.url });
    expect(bare.logs).toBeUndefined();
    expect(bare.crashReports).toBeUndefined();
    expect(bare.crashReport).toBeUndefined();
  });
});
