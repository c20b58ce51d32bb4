/**
 * Benchmark (not a test): per-operation latency of driver-wda (straight to the phone's agent) and
 * driver-appium (through an Appium server in front of the same agent), against the same virtual iPhone, in
 * one run. It lives in the integration project because a driver may not import the other driver or the
 * virtual device. Run from the repo root:
 *
 *   npx tsx tests/integration/src/driver-appium/drivers.bench.ts [blocks] [callsPerBlock]
 *
 * The arms alternate block by block to cancel drift. The phone holds one session, so the first call of a
 * block rebuilds the arm's session: each block starts with an unmeasured warm-up call per operation.
 * Figures are medians (and p90) of single calls, measured from the caller; the Appium server runs in a
 * child process, the phone in this one.
 */
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { DeviceDriver } from '@apex/capability';
import { createAppiumDriver } from '@apex/driver-appium';
import { createWdaDriver } from '@apex/driver-wda';
import { startVirtualIPhone } from '@apex/virtual-device';
import { startAppiumServer } from './support/appium-server';
import { iosCapabilities } from './support/capabilities';

const BLOCKS = Number(process.argv[2] ?? 6);
const CALLS_PER_BLOCK = Number(process.argv[3] ?? 20);
const POINT = { x: 5, y: 30 };

type Arm = 'wda' | 'appium';
const OPERATIONS: Record<string, (driver: DeviceDriver) => Promise<unknown>> = {
  tap: (driver) => driver.tap(POINT),
  screenshot: (driver) => driver.screenshot(),
  'UI tree': (driver) => driver.uiTree(),
  status: (driver) => driver.status(),
};

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

async function main(): Promise<void> {
  const [server, iphone] = await Promise.all([startAppiumServer(), startVirtualIPhone({ port: 0 })]);
  const drivers: Record<Arm, DeviceDriver> = {
    wda: createWdaDriver({ deviceId: 'bench', url: iphone.url }),
    appium: createAppiumDriver({ deviceId: 'bench', serverUrl: server.url, capabilities: iosCapabilities(iphone.url) }),
  };
  const samples: Record<string, Record<Arm, number[]>> = {};
  for (const name of Object.keys(OPERATIONS)) samples[name] = { wda: [], appium: [] };
  try {
    for (let block = 0; block < BLOCKS; block += 1) {
      const arms: Arm[] = block % 2 === 0 ? ['wda', 'appium'] : ['appium', 'wda'];
      for (const arm of arms) {
        const driver = drivers[arm];
        for (const [name, run] of Object.entries(OPERATIONS)) {
          await run(driver);
          for (let call = 0; call < CALLS_PER_BLOCK; call += 1) {
            const started = performance.now();
            await run(driver);
            samples[name]?.[arm].push(performance.now() - started);
          }
        }
      }
    }
  } finally {
    await drivers.appium.close?.();
    await drivers.wda.close?.();
    await server.close();
    await iphone.close();
  }

  console.log(`driver-wda vs driver-appium, same virtual iPhone, ${BLOCKS} blocks × ${CALLS_PER_BLOCK} calls per operation and driver`);
  console.log(`machine: ${cpus().length} cores, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
  console.log('operation    wda p50   appium p50   ratio   added p50   wda p90   appium p90');
  for (const [name, byArm] of Object.entries(samples)) {
    const wda = percentile(byArm.wda, 50);
    const appium = percentile(byArm.appium, 50);
    console.log(
      [
        name.padEnd(10),
        `${wda.toFixed(2)} ms`.padStart(9),
        `${appium.toFixed(2)} ms`.padStart(12),
        `×${(appium / wda).toFixed(2)}`.padStart(7),
        `${(appium - wda).toFixed(2)} ms`.padStart(11),
        `${percentile(byArm.wda, 90).toFixed(2)} ms`.padStart(9),
        `${percentile(byArm.appium, 90).toFixed(2)} ms`.padStart(12),
      ].join('  '),
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
