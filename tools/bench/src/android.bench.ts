/**
 * Android: tap, screenshot and UI tree on the virtual Android phone, through a private real adb server, four
 * ways in one run, arms interleaved in round-robin blocks:
 *
 *   adb        an `adb -P port -s serial …` process per call (`shell input tap`, `exec-out screencap -p`,
 *              `exec-out uiautomator dump /dev/tty`): what a client that shells out to adb pays
 *   raw        the same command over one host-protocol connection, without Apex (`host:transport:SERIAL`,
 *              then `shell,v2,raw:…` / `exec:…`): the floor of the protocol
 *   driver     driver-adb's `tap`, `screenshot`, `uiTree`
 *   operation  tap only: `runOperation(ctx, 'tap', { observe: 'none' })` on a hub with the driver registered
 *
 * Ratios are to `raw` and to `adb`.
 */
import { runOperation } from '@apex/capability';
import { createAdbDriver } from '@apex/driver-adb';
import { DeviceHub } from '@apex/hub';
import { Perception } from '@apex/perception';
import { createVirtualAndroid, startAdbd } from '@apex/virtual-device';
import { findAdb, startRealAdbServer, type RealAdbServer } from '@apex/virtual-device/testing';
import { interleave, type Arm } from './support/interleave';
import { rawAdb } from './support/raw-adb';
import { target, type Section, type SectionResult } from './support/section';
import { round, summarize, type Summary } from './support/stats';

const DEVICE_ID = 'bench-android';
const SETTINGS = 'com.android.settings';
/** A point in the status bar, in pixels: inside the screen, and tapping it changes nothing. */
const TAP_PX = { x: 20, y: 20 };
/** Nothing here gives up on a call. */
const LIVE = new AbortController().signal;
const ARMS = ['adb', 'raw', 'driver', 'operation'] as const;
type ArmName = (typeof ARMS)[number];

interface AndroidCase {
  name: string;
  /** The command every arm runs on the phone. */
  command: string;
  /** The driver's target, as a multiple of the raw protocol call (issue 32). */
  limit: number;
}

const CASES: AndroidCase[] = [
  { name: 'tap', command: `input tap ${TAP_PX.x} ${TAP_PX.y}`, limit: 1.5 },
  { name: 'screenshot', command: 'screencap -p', limit: 1.5 },
  { name: 'UI tree', command: 'uiautomator dump /dev/tty', limit: 2 },
];

/** Until the server reports the TCP device as `device` (it answers CNXN a moment after `adb connect`). */
export async function connectDevice(adb: RealAdbServer, serial: string): Promise<void> {
  const connected = await adb.run(['connect', serial]);
  if (!connected.stdout.toString('utf8').includes(`connected to ${serial}`)) {
    throw new Error(`adb connect ${serial}: ${connected.stdout.toString('utf8').trim()} ${connected.stderr.trim()}`);
  }
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const state = await adb.run(['-s', serial, 'get-state']);
    if (state.stdout.toString('utf8').trim() === 'device') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${serial} never became "device" in the adb server`);
}

/** `adb shell`/`exec-out` as its own process; fails on a non-zero exit. */
async function adbProcess(adb: RealAdbServer, serial: string, args: string[]): Promise<Buffer> {
  const result = await adb.run(['-s', serial, ...args]);
  if (result.code !== 0) throw new Error(`adb ${args.join(' ')} exited ${String(result.code)}: ${result.stderr.trim()}`);
  return result.stdout;
}

function ratio(a: Summary, b: Summary): number {
  return round(a.p50 / b.p50, 2);
}

export const androidSection: Section = {
  name: 'android',
  description: 'driver-adb vs the raw adb protocol and an adb process per call, virtual Android, real adb server',
  async run({ quick, log }): Promise<SectionResult> {
    const result: SectionResult = {
      title: 'Android through a private real adb server, virtual Android phone (Settings), median latency and ratios',
      columns: [
        'operation',
        'adb p50 ms',
        'raw p50 ms',
        'driver p50 ms',
        'operation p50 ms',
        'driver × raw',
        'driver × adb',
        'operation × raw',
        'operation × adb',
        'adb p95 ms',
        'raw p95 ms',
        'driver p95 ms',
        'operation p95 ms',
        'n',
      ],
      rows: [],
      targets: [],
      notes: [],
    };
    if (!findAdb()) {
      const reason = 'skipped: the real adb is not on PATH (apt-get install -y adb)';
      log(`  ${reason}`);
      result.notes.push(reason);
      return result;
    }

    const android = createVirtualAndroid();
    const adbd = await startAdbd({ backend: android.backend, host: '127.0.0.1', extraFeatures: ['cmd'] });
    let adb: RealAdbServer | undefined;
    let hub: DeviceHub | undefined;
    let perception: Perception | undefined;
    try {
      adb = await startRealAdbServer();
      const server = adb;
      const serial = adbd.serial;
      await connectDevice(server, serial);
      log(`  adb ${(await server.run(['version'])).stdout.toString('utf8').split('\n')[1]?.trim() ?? ''}, private server on port ${server.port}, device ${serial}`);
      const raw = rawAdb(server.port, serial);
      const driver = createAdbDriver({ deviceId: DEVICE_ID, server: { host: '127.0.0.1', port: server.port }, device: { host: serial } });
      hub = new DeviceHub({ backgroundProbes: false });
      hub.register({ id: DEVICE_ID, driver });
      perception = new Perception(hub);
      const ctx = { hub, perception };

      await driver.launchApp(SETTINGS, LIVE);
      const { scale } = await driver.screen(LIVE);
      const point = { x: TAP_PX.x / scale, y: TAP_PX.y / scale };

      // Each arm must do the real work: a PNG, a dump, a tap that leaves the screen as it was.
      const png = await raw.exec('screencap -p');
      if (png.subarray(1, 4).toString('latin1') !== 'PNG') throw new Error('the raw screencap is not a PNG');
      if (!(await raw.exec('uiautomator dump /dev/tty')).toString('utf8').includes('<hierarchy')) throw new Error('the raw dump has no hierarchy');
      if (!(await adbProcess(server, serial, ['exec-out', 'uiautomator', 'dump', '/dev/tty'])).toString('utf8').includes('<hierarchy')) {
        throw new Error('the adb process dump has no hierarchy');
      }
      const versionBefore = android.phone.version;

      for (const c of CASES) {
        const viaAdb: Record<string, () => Promise<unknown>> = {
          tap: () => adbProcess(server, serial, ['shell', ...c.command.split(' ')]),
          screenshot: () => adbProcess(server, serial, ['exec-out', ...c.command.split(' ')]),
          'UI tree': () => adbProcess(server, serial, ['exec-out', ...c.command.split(' ')]),
        };
        const viaRaw: Record<string, () => Promise<unknown>> = {
          tap: () => raw.shell(c.command),
          screenshot: () => raw.exec(c.command),
          'UI tree': () => raw.exec(c.command),
        };
        const viaDriver: Record<string, () => Promise<unknown>> = {
          tap: () => driver.tap(point, LIVE),
          screenshot: () => driver.screenshot(LIVE),
          'UI tree': () => driver.uiTree(LIVE),
        };
        const arms: Arm[] = [
          { name: 'adb', run: viaAdb[c.name] as () => Promise<unknown> },
          { name: 'raw', run: viaRaw[c.name] as () => Promise<unknown> },
          { name: 'driver', run: viaDriver[c.name] as () => Promise<unknown> },
          ...(c.name === 'tap' ? [{ name: 'operation', run: () => runOperation(ctx, 'tap', { ...point, observe: 'none', device: DEVICE_ID }) }] : []),
        ];
        const samples = await interleave(arms, { blocks: quick ? 1 : 3, perBlock: quick ? 10 : 20, warmup: 2 });
        const s = Object.fromEntries(ARMS.map((a) => [a, summarize(samples[a] ?? [])])) as Record<ArmName, Summary>;
        const hasOperation = s.operation.n > 0;
        result.rows.push({
          operation: c.name,
          'adb p50 ms': round(s.adb.p50),
          'raw p50 ms': round(s.raw.p50),
          'driver p50 ms': round(s.driver.p50),
          'operation p50 ms': hasOperation ? round(s.operation.p50) : null,
          'driver × raw': ratio(s.driver, s.raw),
          'driver × adb': ratio(s.driver, s.adb),
          'operation × raw': hasOperation ? ratio(s.operation, s.raw) : null,
          'operation × adb': hasOperation ? ratio(s.operation, s.adb) : null,
          'adb p95 ms': round(s.adb.p95),
          'raw p95 ms': round(s.raw.p95),
          'driver p95 ms': round(s.driver.p95),
          'operation p95 ms': hasOperation ? round(s.operation.p95) : null,
          n: s.raw.n,
        });
        log(`  ${c.name}: adb ${s.adb.p50.toFixed(2)} ms, raw ${s.raw.p50.toFixed(2)} ms, driver ${s.driver.p50.toFixed(2)} ms`);
        const driverRatio = s.driver.p50 / s.raw.p50;
        result.targets.push(target(`${c.name}: driver p50 vs the raw protocol call`, `≤ ${c.limit}×`, driverRatio, '×', driverRatio <= c.limit));
        const vsProcess = s.driver.p50 / s.adb.p50;
        result.targets.push(target(`${c.name}: driver p50 vs an adb process per call`, '< 1×', vsProcess, '×', vsProcess < 1));
      }
      if (android.phone.version !== versionBefore) result.notes.push('the tap point changed the screen (expected a no-op tap)');
      result.notes.push(
        `The tap is at (${TAP_PX.x}, ${TAP_PX.y}) px in the status bar (the driver and the operation get it in dp, scale ${scale}); the adb and raw arms run "${CASES[0]?.command}".`,
        'driver-adb opens one connection to the adb server per call, as the adb CLI does; the server keeps the device transport. Its uiTree reads the dump over `exec:` as the raw arm does (plus `dumpsys window InputMethod` only while a text input has focus), then reads the XML in one checked pass and normalizes it; the raw and adb arms only read the bytes.',
        'The virtual phone answers in-process over loopback, so these are mostly the cost of the hops and processes; a real phone spends far longer per command.',
      );
      return result;
    } finally {
      await perception?.close();
      await hub?.close();
      await adb?.stop();
      await adbd.close();
    }
  },
};
