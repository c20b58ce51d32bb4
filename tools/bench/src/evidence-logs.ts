/**
 * get_logs latency (issue 34) on both virtual phones: the `get_logs` operation through runOperation (the driver
 * reads the device's log, the operation filters, redacts and bounds it), next to a raw read of the same source
 * without Apex — the virtual iPhone's host log source (`log show --style ndjson` lines, as a Mac's simulator
 * tools give them) read whole, and `exec:logcat -d -v threadtime -v year -v UTC` over the adb host protocol.
 */
import { runOperation, type OperationContext } from '@apex/capability';
import { createAdbDriver } from '@apex/driver-adb';
import { createWdaDriver } from '@apex/driver-wda';
import { DeviceHub } from '@apex/hub';
import { Perception } from '@apex/perception';
import { virtualSimulatorControl } from '@apex/runtime';
import { createVirtualAndroid, NOTES_BUNDLE_ID, OS_LOG_CAPACITY, SETTINGS_BUNDLE_ID, startAdbd, startVirtualIPhone, VirtualPhone } from '@apex/virtual-device';
import { findAdb, startRealAdbServer } from '@apex/virtual-device/testing';
import { connectDevice } from './android.bench';
import { interleave } from './support/interleave';
import { rawAdb } from './support/raw-adb';
import type { Cell } from './support/section';
import { round, summarize } from './support/stats';

const LIVE = new AbortController().signal;

export interface LogsFigures {
  rows: Record<string, Cell>[];
  notes: string[];
}

interface LogsCase {
  label: string;
  ctx: OperationContext;
  device: string;
  /** The same source read without Apex; resolves with the number of lines (or bytes) read. */
  raw: () => Promise<number>;
  rawLabel: string;
  /** Lines the device's log holds. */
  lines: number;
}

/** get_logs with its defaults (the 100 newest lines) must return lines, and the raw read must read some. */
async function measure(c: LogsCase, quick: boolean): Promise<Record<string, Cell>> {
  const first = (await runOperation(c.ctx, 'get_logs', { device: c.device })).output as { entries: unknown[] };
  if (!Array.isArray(first.entries) || first.entries.length === 0) throw new Error(`get_logs on ${c.label} returned no entries`);
  const rawSize = await c.raw();
  if (rawSize === 0) throw new Error(`the raw read of ${c.label}'s log returned nothing`);
  const samples = await interleave(
    [
      { name: 'operation', run: () => runOperation(c.ctx, 'get_logs', { device: c.device }) },
      { name: 'raw', run: c.raw },
    ],
    { blocks: quick ? 1 : 5, perBlock: quick ? 5 : 20, warmup: 2 },
  );
  const op = summarize(samples['operation'] ?? []);
  const raw = summarize(samples['raw'] ?? []);
  return {
    case: `get_logs (the ${first.entries.length} newest of ${c.lines} lines), ${c.label}; raw: ${c.rawLabel}`,
    'p50 ms': round(op.p50, 2),
    'p95 ms': round(op.p95, 2),
    'raw p50 ms': round(raw.p50, 2),
    '× raw': round(op.p50 / raw.p50, 2),
    n: op.n,
  };
}

/**
 * A busy device's log: a few launches through Apex (the phone logs them itself), then the app's own lines
 * written into the phone's log until it holds as many as it keeps (its ring buffer's size), as a chatty app fills
 * a real device's.
 */
const FILL_LINES = { iphone: OS_LOG_CAPACITY, android: 2_000 };

async function launches(ctx: OperationContext, device: string, apps: string[]): Promise<void> {
  for (let i = 0; i < 3; i += 1) for (const appId of apps) await runOperation(ctx, 'launch_app', { device, appId });
}

const appLine = (i: number) => `sync finished: ${i} items, ${(i * 37) % 1000} ms, cache ${i % 7 === 0 ? 'miss' : 'hit'}`;

export async function logsLatency(quick: boolean, log: (line: string) => void): Promise<LogsFigures> {
  const figures: LogsFigures = { rows: [], notes: [] };

  const iphone = await startVirtualIPhone({ port: 0 });
  const iosHub = new DeviceHub({ backgroundProbes: false });
  iosHub.register({ id: 'iphone', driver: createWdaDriver({ deviceId: 'iphone', url: iphone.url, simulator: virtualSimulatorControl(iphone, 'iphone') }) });
  const iosPerception = new Perception(iosHub);
  try {
    const ctx = { hub: iosHub, perception: iosPerception };
    await launches(ctx, 'iphone', [SETTINGS_BUNDLE_ID, NOTES_BUNDLE_ID]);
    const phone = iphone.phone;
    if (!(phone instanceof VirtualPhone)) throw new Error('the virtual iPhone has no in-memory log to fill');
    for (let i = 0; i < FILL_LINES.iphone; i += 1) {
      phone.osLog.add({ pid: 812, process: 'MobileNotes', subsystem: NOTES_BUNDLE_ID, category: 'sync', type: i % 50 === 0 ? 'Error' : 'Default', message: appLine(i) });
    }
    const raw = async () => {
      let lines = 0;
      for await (const line of iphone.diagnostics.logLines(undefined, LIVE)) if (line) lines += 1;
      return lines;
    };
    const row = await measure({ label: 'virtual iPhone', ctx, device: 'iphone', raw, rawLabel: 'its host log source read whole (ndjson lines)', lines: phone.osLog.read().length }, quick);
    figures.rows.push(row);
    log(`  get_logs iPhone: p50 ${row['p50 ms']} ms, raw ${row['raw p50 ms']} ms`);
  } finally {
    await iosPerception.close();
    await iosHub.close();
    await iphone.close();
  }

  if (!findAdb()) {
    figures.notes.push('get_logs on the virtual Android phone: skipped, the real adb is not on PATH (apt-get install -y adb).');
    return figures;
  }
  const android = createVirtualAndroid();
  const adbd = await startAdbd({ backend: android.backend, host: '127.0.0.1', extraFeatures: ['cmd'] });
  const adb = await startRealAdbServer();
  const hub = new DeviceHub({ backgroundProbes: false });
  const perception = new Perception(hub);
  try {
    await connectDevice(adb, adbd.serial);
    hub.register({ id: 'android', driver: createAdbDriver({ deviceId: 'android', server: { host: '127.0.0.1', port: adb.port }, device: { host: adbd.serial } }) });
    const ctx = { hub, perception };
    await launches(ctx, 'android', ['com.android.settings']);
    for (let i = 0; i < FILL_LINES.android; i += 1) android.phone.logcat.add(4242, i % 50 === 0 ? 'E' : 'I', 'SyncService', appLine(i));
    const wire = rawAdb(adb.port, adbd.serial);
    const raw = async () => (await wire.exec('logcat -d -v threadtime -v year -v UTC')).length;
    const row = await measure({ label: 'virtual Android', ctx, device: 'android', raw, rawLabel: '`exec:logcat -d -v threadtime` over the adb host protocol', lines: android.phone.logcat.read(['main']).length }, quick);
    figures.rows.push(row);
    log(`  get_logs Android: p50 ${row['p50 ms']} ms, raw ${row['raw p50 ms']} ms`);
  } finally {
    await perception.close();
    await hub.close();
    await adb.stop();
    await adbd.close();
  }
  return figures;
}
