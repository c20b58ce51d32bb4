/**
 * The cost of the device lab's hop: tap and screenshot through a Selenium Grid 4 hub (relay node → Appium →
 * virtual iPhone) vs through Appium directly vs driver-wda, in one run. Each arm has its own virtual iPhone
 * (and the Grid arm its own Appium server), so no arm's session ever replaces another's; the phones are the
 * same program, so the differences are the hops. Grid runs as child `java` processes.
 */
import type { DeviceDriver } from '@apex/port';
import { createAppiumDriver } from '@apex/driver-appium';
import { iosCapabilities, startAppiumServer } from '@apex/driver-appium/testing';
import { createWdaDriver } from '@apex/driver-wda';
import { startSeleniumGrid } from '@apex/testing/selenium-grid';
import { startVirtualIPhone } from '@apex/virtual-device';
import { interleave } from './support/interleave';
import type { Section, SectionResult } from './support/section';
import { round, summarize } from './support/stats';

const POINT = { x: 5, y: 30 };
const LIVE = new AbortController().signal;
const OPERATIONS: Record<string, (driver: DeviceDriver) => Promise<unknown>> = {
  tap: (driver) => driver.tap(POINT, LIVE),
  screenshot: (driver) => driver.screenshot(LIVE),
};

export const gridSection: Section = {
  name: 'grid',
  description: 'tap and screenshot through a Selenium Grid 4 hub vs Appium directly vs driver-wda',
  async run({ quick }): Promise<SectionResult> {
    const [grid, appiumDirect, appiumLab, phoneWda, phoneAppium, phoneGrid] = await Promise.all([
      startSeleniumGrid(),
      startAppiumServer(),
      startAppiumServer(),
      startVirtualIPhone({ port: 0 }),
      startVirtualIPhone({ port: 0 }),
      startVirtualIPhone({ port: 0 }),
    ]);
    const { 'appium:skipLogCapture': _skip, ...stereotype } = iosCapabilities(phoneGrid.url, 'bench-lab-phone');
    const drivers: DeviceDriver[] = [];
    try {
      await grid.addRelayNode(appiumLab.url, stereotype);
      const wda = createWdaDriver({ deviceId: 'bench-wda', url: phoneWda.url });
      const appium = createAppiumDriver({ deviceId: 'bench-appium', serverUrl: appiumDirect.url, capabilities: iosCapabilities(phoneAppium.url) });
      const viaGrid = createAppiumDriver({
        deviceId: 'bench-grid',
        serverUrl: grid.url,
        capabilities: { ...stereotype, 'appium:skipLogCapture': true },
        expectedUdid: 'bench-lab-phone',
      });
      drivers.push(wda, appium, viaGrid);
      const result: SectionResult = {
        title: 'Through a Selenium Grid 4 hub vs Appium directly vs driver-wda, median latency',
        columns: ['operation', 'wda p50 ms', 'appium p50 ms', 'grid p50 ms', 'grid − appium p50 ms', 'grid p95 ms', 'n'],
        rows: [],
        targets: [],
        notes: ['Hub, node, Appium and phones all on this machine (loopback); a lab adds its network round trips on top.'],
      };
      for (const [name, run] of Object.entries(OPERATIONS)) {
        const samples = await interleave(
          [
            { name: 'wda', run: () => run(wda) },
            { name: 'appium', run: () => run(appium) },
            { name: 'grid', run: () => run(viaGrid) },
          ],
          { blocks: quick ? 2 : 8, perBlock: quick ? 2 : 25, warmup: 1 },
        );
        const w = summarize(samples.wda ?? []);
        const a = summarize(samples.appium ?? []);
        const g = summarize(samples.grid ?? []);
        result.rows.push({
          operation: name,
          'wda p50 ms': round(w.p50),
          'appium p50 ms': round(a.p50),
          'grid p50 ms': round(g.p50),
          'grid − appium p50 ms': round(g.p50 - a.p50),
          'grid p95 ms': round(g.p95),
          n: g.n,
        });
      }
      return result;
    } finally {
      for (const driver of drivers) await driver.close?.(LIVE);
      await grid.close();
      await Promise.all([appiumDirect.close(), appiumLab.close(), phoneWda.close(), phoneAppium.close(), phoneGrid.close()]);
    }
  },
};
