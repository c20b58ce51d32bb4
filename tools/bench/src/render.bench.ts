/**
 * The virtual phone's rendering in process (no HTTP), per screen and profile: a redraw (draw + encode, pixels
 * unchanged), a repeated (cached) screenshot, a flipped switch (a few strips recompressed) and an app switch
 * (everything recompressed). "cpu" is this process's CPU time, less sensitive to other work on the machine.
 */
import { createPhone, type Phone } from '@apex/virtual-device';
import type { Section, SectionResult } from './support/section';
import { round, summarize } from './support/stats';

/** Wall-clock milliseconds, and the CPU milliseconds of this process pushed to `cpu`. */
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

const SCREENS: [string, (p: Phone) => void][] = [
  ['home', () => undefined],
  ['settings', (p) => p.launchApp('com.apple.Preferences')],
  [
    'notes+keyboard',
    (p) => {
      p.launchApp('com.apple.mobilenotes');
      p.tap(200, 200);
      p.typeText('Hello');
    },
  ],
  ['safari', (p) => p.launchApp('com.apple.mobilesafari')],
  ['photos', (p) => p.launchApp('com.apple.mobileslideshow')],
  ['maps+alert', (p) => p.launchApp('com.apple.Maps')],
];

export const renderSection: Section = {
  name: 'render',
  description: 'the virtual phone rendering screenshots in process (per screen, iPhone 15 and SE)',
  async run({ quick }): Promise<SectionResult> {
    const runs = quick ? 2 : 15;
    const result: SectionResult = {
      title: 'In-process rendering (no HTTP): wall and CPU milliseconds',
      columns: ['profile', 'screen', 'wall p50 ms', 'wall p95 ms', 'cpu p50 ms', 'cached p50 ms', 'PNG KiB'],
      rows: [],
      targets: [],
      notes: [],
    };
    const add = (profile: string, screen: string, wall: number[], cpu: number[], cached: number[], bytes: number) => {
      const w = summarize(wall);
      result.rows.push({
        profile,
        screen,
        'wall p50 ms': round(w.p50),
        'wall p95 ms': round(w.p95),
        'cpu p50 ms': round(summarize(cpu).p50),
        'cached p50 ms': cached.length ? round(summarize(cached).p50) : null,
        'PNG KiB': bytes ? Math.round(bytes / 1024) : null,
      });
    };
    for (const profile of quick ? ['iphone-15'] : ['iphone-15', 'iphone-se']) {
      for (const [name, setup] of quick ? SCREENS.slice(0, 2) : SCREENS) {
        const phone = createPhone({ profile });
        setup(phone);
        phone.renderPng(); // fonts and caches
        const redraw: number[] = [];
        const cpu: number[] = [];
        const cached: number[] = [];
        let bytes = 0;
        for (let i = 0; i < runs; i += 1) {
          // A state change that leaves the pixels as they were: a full draw, no strip to recompress.
          phone.setAppearance(phone.appearance());
          redraw.push(time(() => (bytes = phone.renderPng().length), cpu));
          cached.push(time(() => phone.renderPng()));
          await new Promise((resolve) => setImmediate(resolve));
        }
        add(profile, `${name} (redraw)`, redraw, cpu, cached, bytes);
      }
      const phone = createPhone({ profile });
      phone.launchApp('com.apple.Preferences');
      phone.renderPng();
      const toggle: number[] = [];
      const toggleCpu: number[] = [];
      const full: number[] = [];
      const fullCpu: number[] = [];
      for (let i = 0; i < runs; i += 1) {
        toggleWifi(phone);
        toggle.push(time(() => phone.renderPng(), toggleCpu));
        phone.launchApp(i % 2 ? 'com.apple.Preferences' : 'com.apple.mobilenotes');
        full.push(time(() => phone.renderPng(), fullCpu));
        phone.launchApp('com.apple.Preferences');
        phone.renderPng();
        await new Promise((resolve) => setImmediate(resolve));
      }
      add(profile, 'switch flipped', toggle, toggleCpu, [], 0);
      add(profile, 'app switched', full, fullCpu, [], 0);
    }
    return result;
  },
};
