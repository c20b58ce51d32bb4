/**
 * Benchmark (not a test) of perception on the virtual iPhone over the whole stack (WDA HTTP face, WDA
 * driver, hub). It lives in the integration project because perception (a core lib) may not import the
 * virtual device or a driver. Run from the repo root:
 *
 *   npx tsx tests/integration/src/perception/perception.bench.ts [iterations] [ocrWorkers]
 *
 * Figures: find_text through the tree; through OCR on a full screenshot, warm pool, new pixels each time
 * (the screen is scrolled between runs so the cache cannot answer), on a text-dense web page and on
 * Settings; the same query repeated on an unchanged screen (cache); find_icon by name; describe_screen; and the resident memory the OCR pool adds.
 * "cpu" is the CPU time of the whole process (all threads: OCR workers, sharp, and the in-process phone
 * rendering its screen) during the call: on a shared, loaded machine it shows the work apart from the waiting.
 */
import { performance } from 'node:perf_hooks';
import { cpus, loadavg } from 'node:os';
import { captureScreen, DeviceHub, getUiTree } from '@apex/capability';
import { createWdaDriver } from '@apex/driver-wda';
import { Perception } from '@apex/perception';
import { startVirtualIPhone } from '@apex/virtual-device';

const ITERATIONS = Number(process.argv[2] ?? 20);
/** Default: Perception's own default (1 worker on ≤ 2 cores). */
const OCR_WORKERS = process.argv[3] === undefined ? undefined : Number(process.argv[3]);

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function measure(label: string, runs: number, fn: (i: number) => Promise<unknown>, target?: number) {
  const times: number[] = [];
  const cpuTimes: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    await fn(i);
    times.push(performance.now() - start);
    const cpu = process.cpuUsage(cpuStart);
    cpuTimes.push((cpu.user + cpu.system) / 1000);
  }
  const p50 = percentile(times, 50);
  const verdict = target === undefined ? '' : p50 < target ? ` (target < ${target} ms: met)` : ` (target < ${target} ms: MISSED)`;
  console.log(
    `${label.padEnd(58)} p50 ${p50.toFixed(1).padStart(7)} ms  p95 ${percentile(times, 95).toFixed(1).padStart(7)} ms  ` +
      `cpu p50 ${percentile(cpuTimes, 50).toFixed(0).padStart(5)} ms  n=${runs}${verdict}`,
  );
  return p50;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function main(): Promise<void> {
  console.log(
    `node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), load ${loadavg()[0].toFixed(1)}, ` +
      `${ITERATIONS} iterations, ocrWorkers ${OCR_WORKERS ?? 'default'}`,
  );
  const iphone = await startVirtualIPhone({ port: 0 });
  const hub = new DeviceHub();
  hub.register({ id: 'phone', driver: createWdaDriver({ deviceId: 'phone', url: iphone.url }) });
  const perception = new Perception(hub, { ocrWorkers: OCR_WORKERS });
  try {
    iphone.phone.launchApp('com.apple.Preferences');
    await perception.findText('phone', { text: 'General', source: 'ui-tree' });
    await measure('floor: the UI tree through hub + driver alone', ITERATIONS, () => getUiTree(hub, 'phone'));
    await measure('find_text via the tree (Settings, "General", auto)', ITERATIONS, async () => {
      const { matches } = await perception.findText('phone', { text: 'General' });
      if (matches[0]?.source !== 'ui-tree') throw new Error('expected a tree match');
    }, 30);

    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    iphone.phone.launchApp('com.apple.mobilesafari');
    const start = performance.now();
    await perception.findText('phone', { text: 'What you can do', source: 'ocr' });
    console.log(`first OCR (starts the worker, loads the language data)         ${(performance.now() - start).toFixed(0)} ms`);
    const rssAfter = process.memoryUsage().rss;

    await measure('floor: scroll + a fresh screenshot (phone renders)', ITERATIONS, async (i) => {
      iphone.phone.drag(200, 500, 200, i % 2 === 0 ? 480 : 518, 0.05);
      await captureScreen(hub, 'phone');
    });

    let misses = 0;
    const recognitionsBefore = perception.ocrStats().recognitions;
    await measure('find_text via OCR, full screenshot, warm, Safari (dense)', ITERATIONS, async (i) => {
      // Scroll 20 pt up, 18 pt down, ...: every run sees a page offset (pixels) the cache has not seen.
      iphone.phone.drag(200, 500, 200, i % 2 === 0 ? 480 : 518, 0.05);
      const { matches } = await perception.findText('phone', { text: 'What you can do', source: 'ocr' });
      if (matches.length === 0) misses += 1;
    }, 800);
    const recognized = perception.ocrStats().recognitions - recognitionsBefore;
    console.log(`  (${recognized} of ${ITERATIONS} runs ran OCR; the phrase was missed in ${misses})`);

    iphone.phone.launchApp('com.apple.Preferences');
    await measure('find_text via OCR, full screenshot, warm, Settings (sparse)', ITERATIONS, async (i) => {
      iphone.phone.drag(200, 500, 200, i % 2 === 0 ? 480 : 518, 0.05);
      await perception.findText('phone', { text: 'Notifications', source: 'ocr' });
    }, 800);
    iphone.phone.launchApp('com.apple.mobilesafari');

    await measure('floor: a screenshot through hub + driver alone', ITERATIONS, () => captureScreen(hub, 'phone'));
    await measure('find_text via OCR, unchanged screen (cache)', ITERATIONS, async () => {
      await perception.findText('phone', { text: 'What you can do', source: 'ocr' });
    }, 10);

    await measure('find_text auto, text only in pixels, unchanged screen', ITERATIONS, async () => {
      await perception.findText('phone', { text: 'What you can do' });
    });

    iphone.phone.launchApp('com.apple.mobileslideshow');
    // Each run first taps the Recents trash can (one photo fewer): new pixels, so nothing is cached.
    await measure('find_icon name "search" (Photos, new screen each run)', 8, async () => {
      iphone.phone.tap(363, 122);
      await perception.findIcon('phone', { name: 'search' });
    });
    iphone.phone.terminateApp('com.apple.mobileslideshow');
    iphone.phone.launchApp('com.apple.mobileslideshow');
    await perception.findIcon('phone', { name: 'trash' });
    await measure('find_icon name "trash" again (Photos, same screen)', ITERATIONS, async () => {
      const { matches } = await perception.findIcon('phone', { name: 'trash' });
      if (matches.length !== 2) throw new Error(`expected 2 trash icons, got ${matches.length}`);
    });

    iphone.phone.launchApp('com.apple.Preferences');
    await measure('describe_screen Settings (no pixels)', ITERATIONS, async () => {
      await perception.describeScreen('phone', { includeOcrText: false });
    });
    await measure('describe_screen Settings (OCR + icons, cached screen)', ITERATIONS, async () => {
      await perception.describeScreen('phone', {});
    });
    const stats = perception.ocrStats();
    console.log(`OCR pool: ${stats.workers} worker(s); RSS ${mb(rssBefore)} before the pool, ${mb(rssAfter)} after its first job (+${mb(rssAfter - rssBefore)}); now ${mb(process.memoryUsage().rss)}`);
    console.log(`OCR recognitions ${stats.recognitions}, cache hits ${stats.cacheHits}; load at the end ${loadavg()[0].toFixed(1)}`);
  } finally {
    await perception.close();
    await hub.close();
    await iphone.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
