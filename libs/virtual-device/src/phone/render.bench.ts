/**
 * Screenshot benchmark (not a test): `npx tsx libs/virtual-device/src/phone/render.bench.ts`.
 * For each screen it measures a changed-screen render (draw + encode) and a repeated (cached) screenshot.
 */
import { createPhone } from './index';
import type { Phone } from './model';

const RUNS = Number(process.env.RUNS ?? 15);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function time(fn: () => void): number {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

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

for (const profile of ['iphone-15', 'iphone-se']) {
  for (const [name, setup] of screens) {
    const phone = createPhone({ profile });
    setup(phone);
    phone.renderPng(); // warm up fonts and caches
    const fresh: number[] = [];
    const cached: number[] = [];
    let bytes = 0;
    for (let i = 0; i < RUNS; i++) {
      // A state change that leaves the screen looking the same still forces a full render.
      phone.setAppearance(phone.appearance());
      fresh.push(time(() => (bytes = phone.renderPng().length)));
      cached.push(time(() => phone.renderPng()));
    }
    fresh.sort((a, b) => a - b);
    cached.sort((a, b) => a - b);
    console.log(
      `${profile.padEnd(10)} ${name.padEnd(15)} render+encode p50 ${percentile(fresh, 50).toFixed(1)} ms  p90 ${percentile(fresh, 90).toFixed(1)} ms | cached p50 ${percentile(cached, 50).toFixed(3)} ms | ${(bytes / 1024).toFixed(0)} KiB`,
    );
  }
}
