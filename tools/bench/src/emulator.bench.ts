/**
 * Virtual iPhone speed over real HTTP at 1179×2556 (iPhone 15 profile), p50/p95 in milliseconds.
 * Run: npx tsx libs/virtual-device/bench/emulator.bench.ts [iterations]
 * Targets (issue 3): screenshot p50 < 60 ms, source p50 < 5 ms.
 */
import * as os from 'node:os';
import { startVirtualIPhone } from '@apex/virtual-device';

const ITERATIONS = Number(process.argv[2] ?? 100);
const WARMUP = 10;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

async function measure(name: string, before: () => void, request: () => unknown): Promise<{ name: string; p50: number; p95: number }> {
  const samples: number[] = [];
  for (let i = 0; i < WARMUP + ITERATIONS; i++) {
    // Let the event loop turn between samples (native finalizers, sockets), as a real client's pacing would.
    await new Promise((resolve) => setImmediate(resolve));
    before();
    const start = process.hrtime.bigint();
    await request();
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (i >= WARMUP) samples.push(ms);
  }
  samples.sort((a, b) => a - b);
  return { name, p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

async function main(): Promise<void> {
  const iphone = await startVirtualIPhone();
  const get = async (path: string) => {
    const response = await fetch(iphone.url + path);
    const body = (await response.json()) as { value: unknown };
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    return body.value;
  };
  try {
    const session = await fetch(`${iphone.url}/session`, { method: 'POST', body: JSON.stringify({ capabilities: { alwaysMatch: { bundleId: 'com.apple.Preferences' } } }) });
    await session.text(); // an unread body would tie up (and later reset) the pooled connection
    const { phone } = iphone;
    // The Wi-Fi switch, found once; tapping it between samples changes the screen (pixels and source).
    const wifi = phone.snapshot();
    const find = (e: typeof wifi): typeof wifi | undefined => (e.type === 'Switch' && e.label === 'Wi-Fi' ? e : e.children.map(find).find(Boolean));
    const target = find(wifi);
    if (!target) throw new Error('no Wi-Fi switch');
    const toggle = () => phone.tap(target.rect.x + target.rect.width / 2, target.rect.y + target.rect.height / 2);
    const nothing = () => undefined;

    const shot = (await get('/screenshot')) as string;
    const png = Buffer.from(shot, 'base64');
    console.log(`screenshot ${png.readUInt32BE(16)}×${png.readUInt32BE(20)} px, ${(png.length / 1024).toFixed(0)} KiB PNG; ${ITERATIONS} samples each after ${WARMUP} warm-up`);
    console.log(`machine: ${os.cpus().length} CPUs, load average ${os.loadavg().map((n) => n.toFixed(1)).join(' / ')} (other work on the machine inflates these figures)`);

    const results = [
      await measure('GET /screenshot (screen changed before each)', toggle, () => get('/screenshot')),
      await measure('GET /screenshot (unchanged screen)', nothing, () => get('/screenshot')),
      await measure('GET /source (unchanged screen)', nothing, () => get('/source')),
      await measure('GET /source (screen changed before each)', toggle, () => get('/source')),
      await measure('GET /source?format=json (unchanged)', nothing, () => get('/source?format=json')),
      await measure('GET /status', nothing, () => get('/status')),
      // The phone's own rendering, in-process, to tell rendering time from the HTTP face's overhead.
      await measure('phone.renderPng() in-process (changed)', toggle, () => phone.renderPng()),
    ];
    const width = Math.max(...results.map((r) => r.name.length));
    for (const r of results) console.log(`${r.name.padEnd(width)}  p50 ${r.p50.toFixed(1).padStart(6)} ms   p95 ${r.p95.toFixed(1).padStart(6)} ms`);
  } finally {
    await iphone.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
