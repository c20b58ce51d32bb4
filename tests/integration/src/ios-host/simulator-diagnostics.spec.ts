import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ApexError } from '@apex/errors';
import { leakedWordsIn } from '@apex/errors/testing';
import { createSimctlControl, createWdaDriver, type WdaDriver } from '@apex/driver-wda';
import { installStandIns, type StandIns } from '@apex/ios-host/testing';
import type { LogEntry } from '@apex/port';
import { CAMERA_BUNDLE_ID, startVirtualIPhone, type VirtualIPhone } from '@apex/virtual-device';

/**
 * A booted simulator's log and crash reports through Xcode's tools: `xcrun simctl spawn UDID log show --style
 * ndjson` (a stand-in answering with the lines a virtual iPhone writes in that format) and the Mac's
 * DiagnosticReports folder (a temp folder with `.ips` files of two simulators), read by driver-wda through its
 * simulator control.
 */

const UDID = '8A1B2C3D-0000-4000-8000-00000000AAAA';
const OTHER = '8A1B2C3D-0000-4000-8000-00000000BBBB';
const live = (): AbortSignal => AbortSignal.timeout(20_000);

async function all(entries: AsyncIterable<LogEntry> | undefined): Promise<LogEntry[]> {
  if (!entries) throw new Error('no log');
  const out: LogEntry[] = [];
  for await (const e of entries) out.push(e);
  return out;
}

describe('a simulator’s log and crash reports through Xcode’s tools', () => {
  let phone: VirtualIPhone;
  let tools: StandIns;
  let crashDir: string;
  let driver: WdaDriver;

  beforeAll(async () => {
    phone = await startVirtualIPhone({ port: 0 });
    await fetch(`${phone.url}/status`);
    phone.phone.launchApp(CAMERA_BUNDLE_ID);
    const lines: string[] = [];
    for await (const line of phone.diagnostics.logLines(undefined, live())) lines.push(line);
    tools = installStandIns({ xcode: { version: '15.4', build: '15F31d' }, logLines: lines });
    crashDir = mkdtempSync(path.join(tmpdir(), 'apex-diagnostic-reports-'));
    // Two simulators' reports: their process paths name their devices, as CoreSimulator's do.
    const report = (udid: string) =>
      `{"app_name":"Camera","timestamp":"2026-12-06 10:15:00.00 +0000","bug_type":"309","bundleID":"${CAMERA_BUNDLE_ID}","name":"Camera"}\n` +
      JSON.stringify({ procPath: `/Users/dev/Library/Developer/CoreSimulator/Devices/${udid}/data/Containers/Bundle/Application/X/Camera.app/Camera`, exception: { type: 'EXC_CRASH', signal: 'SIGABRT' }, faultingThread: 0, threads: [{ frames: [{ symbol: 'abort', symbolLocation: 8, imageIndex: 0 }] }], usedImages: [{ name: 'libsystem_c.dylib' }] });
    writeFileSync(path.join(crashDir, 'Camera-2026-12-06-101500.ips'), report(UDID));
    writeFileSync(path.join(crashDir, 'Camera-2026-12-06-101501.ips'), report(OTHER));
    writeFileSync(path.join(crashDir, 'notes.txt'), 'not a report');
    driver = createWdaDriver({ deviceId: 'sim', url: phone.url, simulator: createSimctlControl({ deviceId: 'sim', udid: UDID, env: tools.env, crashDir }) });
  });
  afterAll(async () => {
    tools?.remove();
    if (crashDir) rmSync(crashDir, { recursive: true, force: true });
    await phone?.close();
  });

  it('reads the log through `simctl spawn UDID log show --style ndjson --start <local time>`', async () => {
    const since = Date.now() - 60_000;
    const entries = await all(driver.logs?.({ sinceMs: since }, live()));
    expect(entries.find((e) => e.message === 'Viewfinder shown; no capture device')).toMatchObject({ level: 'info', process: 'Camera', app: CAMERA_BUNDLE_ID });
    const call = tools.calls().find((c) => c.tool === 'xcrun' && c.args[1] === 'spawn');
    expect(call?.args.slice(0, 8)).toEqual(['simctl', 'spawn', UDID, 'log', 'show', '--style', 'ndjson', '--start']);
    expect(call?.args[8]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('lists and reads only this simulator’s .ips reports', async () => {
    const crashes = (await driver.crashReports?.({}, live())) ?? [];
    expect(crashes).toEqual([{ id: 'Camera-2026-12-06-101500.ips', app: CAMERA_BUNDLE_ID, time: Date.parse('2026-12-06T10:15:00Z'), exception: 'EXC_CRASH' }]);
    expect(await driver.crashReport?.('Camera-2026-12-06-101500.ips', live())).toMatchObject({ signal: 'SIGABRT', frames: ['libsystem_c.dylib abort + 8'] });
  });

  it('without Xcode the log read fails as a device error, not a crash of Apex', async () => {
    const bare = createWdaDriver({ deviceId: 'sim2', url: phone.url, simulator: createSimctlControl({ deviceId: 'sim2', udid: UDID, env: { PATH: '/nonexistent' }, crashDir }) });
    const error = await all(bare.logs?.({}, live())).then(
      () => undefined,
      (e: unknown) => e as ApexError,
    );
    expect(error).toBeInstanceOf(ApexError);
    expect(error?.code).toBe('device_error');
    expect(leakedWordsIn(`${error?.message} ${error?.hint}`)).toEqual([]);
    expect(`${error?.message} ${error?.hint}`).not.toMatch(/xcrun|simctl/i);
  });
});
