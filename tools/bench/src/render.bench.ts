/**
 * Screenshot benchmark (not a test): `npx tsx libs/virtual-device/src/phone/render.bench.ts`.
 * For each screen: a redraw (draw + encode, pixels unchanged) and a repeated (cached) screenshot; then a
 * flipped switch (a few strips recompressed) and an app switch (everything recompressed).
 */
import * as os from 'node:os';
import { createPhone, type Phone } from '@apex/virtual-device';

const RUNS = Number(process.env.RUNS ?? 15);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Wall-clock milliseconds, and CPU milliseconds of this process (less sensitive to other work on the machine). */
function time(fn: () => void, cpu?: number[]): number {
  const c = process.cpuUsage();
  const t = process.hrtime.bigint();
  fn();
  const wall = Number(process.hrtime.bigint() - t) / 1e6;
  const used = process.cpuUsage(c);
  cpu?.push((used.user + used.system) / 1000);
  return wall;
}

const toggleWifi = (p: Phone): void => p.tap(350, p.profile.statusBarHeight + 52 + 16 + 44 + 22);

const screens: [string, (p: Phone) => void][] = [
  ['home', () => undefined],
  ['settings', (p) => p.launchApp('com.apple.Preferences')],
  ['notes+keyboard', (p) => {
    p.launchApp('com.apple.mobilenotes');
    p.tap(200, 200);
    p.typeText('Hello');
  }],
  ['safari', (p) => p.launchApp('com.apple.mobilesafari')],
  ['photos', (p) => p.launchApp('com.apple.mobileslideshow')],
  ['maps+alert', (p) => p.launchApp('com.apple.Maps')],
];

console.log(`load average ${os.loadavg().map((n) => n.toFixed(1)).join(' / ')} on ${os.cpus().length} CPUs; ${RUNS} runs each`);
for (const profile of ['iphone-15', 'iphone-se']) {
  for (const [name, setup] of screens) {
    const phone = createPhone({ profile });
    setup(phone);
    phone.renderPng(); // warm up fonts and caches
    const redraw: number[] = [];
    const redrawCpu: number[] = [];
    const cached: number[] = [];
    let bytes = 0;
    for (let i = 0; i < RUNS; i++) {
      // A state change that leaves the pixels as they were: a full draw, no strip to recompress.
      phone.setAppearance(phone.appearance());
      redraw.push(time(() => (bytes = phone.renderPng().length), redrawCpu));
      cached.push(time(() => phone.renderPng()));
    }
    report(profile, name, redraw, redrawCpu, cached, bytes);
  }
  // Every other screen differs from the last: a switch flips (a few strips change), then the app changes.
  const phone = createPhone({ profile });
  phone.launchApp('com.apple.Preferences');
  phone.renderPng();
  const toggle: number[] = [];
  const toggleCpu: number[] = [];
  const full: number[] = [];
  const fullCpu: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    toggleWifi(phone);
    toggle.push(time(() => phone.renderPng(), toggleCpu));
    phone.launchApp(i % 2 ? 'com.apple.Preferences' : 'com.apple.mobilenotes');
    full.push(time(() => phone.renderPng(), fullCpu));
    phone.launchApp('com.apple.Preferences');
    phone.renderPng();
  }
  report(profile, 'switch flipped', toggle, toggleCpu, [], 0);
  report(profile, 'app switched', full, fullCpu, [], 0);
}

function report(profile: string, name: string, wall: number[], cpu: number[], cached: number[], bytes: number): void {
  const p = (v: number[], q: number) => percentile([...v].sort((a, b) => a - b), q);
  const cachedText = cached.length ? ` | cached p50 ${p(cached, 50).toFixed(3)} ms` : '';
  const size = bytes ? ` | ${(bytes / 1024).toFixed(0)} KiB` : '';
  console.log(
    `${profile.padEnd(10)} ${name.padEnd(15)} wall p50 ${p(wall, 50).toFixed(1).padStart(6)} ms p90 ${p(wall, 90).toFixed(1).padStart(6)} ms | cpu p50 ${p(cpu, 50).toFixed(1).padStart(5)} ms${cachedText}${size}`,
  );
}
