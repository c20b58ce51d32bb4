/**
 * driver-wda (straight to the phone's agent) vs driver-appium (through an Appium server in front of the same
 * agent), per operation, against the same virtual iPhone in one run. The Appium server runs in a child
 * process (its packages are ES modules with global loggers), the phone in this one. The phone holds one
 * session, so each block starts with an unmeasured call that rebuilds the arm's session.
 */
import type { DeviceDriver } from '@apex/port';
import { createAppiumDriver } from '@apex/driver-appium';
import { iosCapabilities, startAppiumServer } from '@apex/driver-appium/testing';
import { createWdaDriver } from '@apex/driver-wda';
import { startVirtualIPhone } from '@apex/virtual-device';
import { interleave } from './support/interleave';
import type { Section, SectionResult } from './support/section';
import { round, summarize } from './support/stats';

const POINT = { x: 5, y: 30 };
/** Nothing here gives up on a call. */
const LIVE = new AbortController().signal;
const OPERATIONS: Record<string, (driver: DeviceDriver) => Promise<unknown>> = {
  tap: (driver) => driver.tap(POINT, LIVE),
  screenshot: (driver) => driver.screenshot(LIVE),
  'UI tree': (driver) => driver.uiTree(LIVE),
  status: (driver) => driver.status(LIVE),
};

export const driversSection: Section = {
  name: 'drivers',
  description: 'driver-wda vs driver-appium (Appium server in a child process) on the same virtual iPhone',
  async run({ quick }): Promise<SectionResult> {
    const [server, iphone] = await Promise.all([startAppiumServer(), startVirtualIPhone({ port: 0 })]);
    const wda = createWdaDriver({ deviceId: 'bench', url: iphone.url });
    const appium = createAppiumDriver({ deviceId: 'bench', serverUrl: server.url, capabilities: iosCapabilities(iphone.url) });
    const result: SectionResult = {
      title: 'driver-wda vs driver-appium, same virtual iPhone, median latency',
      columns: ['operation', 'wda p50 ms', 'appium p50 ms', 'ratio ×', 'added p50 ms', 'wda p95 ms', 'appium p95 ms', 'n'],
      rows: [],
      targets: [],
      notes: ['The virtual iPhone answers from caches, so these are mostly the cost of the hops; a real phone spends far longer per command.'],
    };
    try {
      for (const [name, run] of Object.entries(OPERATIONS)) {
        const samples = await interleave(
          [
            { name: 'wda', run: () => run(wda) },
            { name: 'appium', run: () => run(appium) },
          ],
          { blocks: quick ? 2 : 8, perBlock: quick ? 2 : 25, warmup: 1 },
        );
        const w = summarize(samples.wda ?? []);
        const a = summarize(samples.appium ?? []);
        result.rows.push({
          operation: name,
          'wda p50 ms': round(w.p50),
          'appium p50 ms': round(a.p50),
          'ratio ×': round(a.p50 / w.p50, 2),
          'added p50 ms': round(a.p50 - w.p50),
          'wda p95 ms': round(w.p95),
          'appium p95 ms': round(a.p95),
          n: w.n,
        });
      }
      return result;
    } finally {
      await appium.close(LIVE);
      await wda.close(LIVE);
      await server.close();
      await iphone.close();
    }
  },
};
