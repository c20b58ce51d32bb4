import { ApexError } from '@apex/errors';
import { createAdbDriver, type AdbDriver } from '@apex/driver-adb';
import type { LogEntry, UiNode } from '@apex/port';
import { eventually } from '@apex/testing';
import { createVirtualAndroid, startAdbd, type Adbd, type VirtualAndroid } from '@apex/virtual-device';

/**
 * The device log and crash reports over the DIRECT transport (driver-adb straight to the virtual adbd, no adb
 * server: how the embedded Android is reached): `exec:logcat` read line by line as the WRTEs arrive, a runaway
 * line cut at its bound, and a stream that never ends closed on the phone once the reader gives up.
 * (`evidence.real-adb.spec.ts` reads the same through a real adb server.)
 */

const live = (): AbortSignal => AbortSignal.timeout(20_000);
const never = new AbortController().signal;

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

describe('the virtual Android’s log and crash reports over the direct transport (no adb server)', () => {
  let android: VirtualAndroid;
  let adbd: Adbd;
  let driver: AdbDriver;
  /** While on, `logcat` answers with an endless flood (one runaway line first) until its stream is closed. */
  const flood = { on: false, sessionsEnded: 0 };

  beforeAll(async () => {
    android = createVirtualAndroid();
    const shell = android.backend.shell;
    adbd = await startAdbd({
      backend: {
        ...android.backend,
        shell: async (session) => {
          if (!flood.on || !session.command.startsWith('logcat')) return shell(session);
          session.write(`12-06 10:00:00.000  100  100 I Runaway: ${'x'.repeat(100_000)}\n`);
          for (let i = 0; !session.signal.aborted; i++) {
            session.write(`12-06 10:00:00.000  100  100 D Flood: line ${i}\n`);
            if (i % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
          }
          flood.sessionsEnded++;
          return 0;
        },
      },
      host: '127.0.0.1',
    });
    driver = createAdbDriver({ deviceId: 'pixel', device: { host: adbd.serial } });
  });

  afterAll(async () => {
    await driver?.close(never);
    await adbd?.close();
  });

  it('reads the log: a launch’s ActivityManager line, narrowed by a minimum level', async () => {
    await driver.launchApp('com.android.settings', live());
    const entries = await all(driver.logs({}, live()));
    expect(entries.find((e) => /ActivityManager: Start proc \d+:com\.android\.settings/.test(e.message))).toMatchObject({ level: 'info', process: 'system_server' });
    android.phone.logcat.add(4999, 'E', 'Probe', 'an error');
    const errors = await all(driver.logs({ minLevel: 'error' }, live()));
    expect(errors.map((e) => e.message)).toContain('Probe: an error');
    expect(errors.every((e) => e.level === 'error' || e.level === 'fault')).toBe(true);
  });

  it('Camera’s crash is listed and read from the crash buffer', async () => {
    await driver.launchApp('com.google.android.GoogleCamera', live());
    const button = findNode(await driver.uiTree(live()), 'Open camera') as UiNode;
    await driver.tap({ x: button.bounds.x + button.bounds.width / 2, y: button.bounds.y + button.bounds.height / 2 }, live());
    const crashes = await driver.crashReports({ app: 'com.google.android.GoogleCamera' }, live());
    expect(crashes).toEqual([expect.objectContaining({ app: 'com.google.android.GoogleCamera', exception: 'java.lang.RuntimeException' })]);
    expect(await driver.crashReport(crashes[0]?.id ?? '', live())).toMatchObject({ reason: 'Fail to connect to camera service' });
  });

  it('an endless log: lines come as they arrive, a runaway line is cut, and giving up closes the command on the phone', async () => {
    flood.on = true;
    try {
      const controller = new AbortController();
      const seen: LogEntry[] = [];
      const reading = (async () => {
        for await (const entry of driver.logs({}, controller.signal)) {
          seen.push(entry);
          if (seen.length === 5_000) controller.abort();
        }
      })();
      const error = await reading.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ApexError);
      expect((error as ApexError).code).toBe('device_timeout');
      expect(seen).toHaveLength(5_000);
      expect(seen[0]?.message.startsWith('Runaway: x')).toBe(true);
      expect(seen[0]?.message.length).toBeLessThan(17 * 1024);
      expect(seen[1]?.message).toBe('Flood: line 0');
      await eventually(() => flood.sessionsEnded === 1, { timeoutMs: 10_000, what: 'the phone’s logcat ended' });
    } finally {
      flood.on = false;
    }
    // The one connection stays usable.
    await driver.status(live());
    expect(adbd.connectionCount()).toBe(1);
  });
});
