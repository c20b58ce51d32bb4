/**
 * The virtual iPhone's own speed over real HTTP at 1179×2556 (iPhone 15 profile): raw WDA calls, p50/p95.
 * Targets (issue 3): screenshot p50 < 60 ms, source p50 < 5 ms.
 */
import { startVirtualIPhone, SETTINGS_BUNDLE_ID, type PhoneElement } from '@apex/virtual-device';
import { rawWda } from './support/raw-wda';
import { target, type Section, type SectionResult } from './support/section';
import { round, summarize, timed, yieldToLoop } from './support/stats';

async function measure(count: number, warmup: number, before: () => void, request: () => Promise<unknown>) {
  const samples: number[] = [];
  for (let i = 0; i < warmup + count; i += 1) {
    await yieldToLoop();
    before();
    const ms = await timed(request);
    if (i >= warmup) samples.push(ms);
  }
  return summarize(samples);
}

export const emulatorSection: Section = {
  name: 'emulator',
  description: 'the virtual iPhone over HTTP: screenshot (changed / unchanged screen), source, status',
  async run({ quick }): Promise<SectionResult> {
    const iphone = await startVirtualIPhone({ port: 0 });
    const raw = rawWda(iphone.url);
    try {
      await raw.post('/session', { capabilities: { alwaysMatch: { bundleId: SETTINGS_BUNDLE_ID } } });
      const { phone } = iphone;
      // The Wi-Fi switch; tapping it between samples changes the screen (pixels and source).
      const find = (e: PhoneElement): PhoneElement | undefined =>
        e.type === 'Switch' && e.label === 'Wi-Fi' ? e : e.children.map(find).find(Boolean);
      const wifi = find(phone.snapshot());
      if (!wifi) throw new Error('no Wi-Fi switch on Settings');
      const toggle = () => phone.tap(wifi.rect.x + wifi.rect.width / 2, wifi.rect.y + wifi.rect.height / 2);
      const nothing = () => undefined;
      const get = (path: string) => () => raw.get(path);
      const count = quick ? 5 : 100;
      const warmup = quick ? 1 : 10;
      const png = Buffer.from((JSON.parse(await raw.get('/screenshot')) as { value: string }).value, 'base64');
      const cases: [string, () => void, () => Promise<unknown>][] = [
        ['GET /screenshot, screen changed before each', toggle, get('/screenshot')],
        ['GET /screenshot, unchanged screen', nothing, get('/screenshot')],
        ['GET /source (xml), unchanged screen', nothing, get('/source')],
        ['GET /source (xml), screen changed before each', toggle, get('/source')],
        ['GET /source?format=json, unchanged', nothing, get('/source?format=json')],
        ['GET /status', nothing, get('/status')],
        ['phone.renderPng() in-process, changed (no HTTP)', toggle, async () => phone.renderPng()],
      ];
      const result: SectionResult = {
        title: `Virtual iPhone ${png.readUInt32BE(16)}×${png.readUInt32BE(20)} px (PNG ${(png.length / 1024).toFixed(0)} KiB), raw HTTP`,
        columns: ['request', 'p50 ms', 'p95 ms', 'n'],
        rows: [],
        targets: [],
        notes: [],
      };
      const p50 = new Map<string, number>();
      for (const [name, before, request] of cases) {
        const s = await measure(count, warmup, before, request);
        p50.set(name, s.p50);
        result.rows.push({ request: name, 'p50 ms': round(s.p50), 'p95 ms': round(s.p95), n: s.n });
      }
      const shot = p50.get('GET /screenshot, screen changed before each') ?? NaN;
      const source = p50.get('GET /source (xml), screen changed before each') ?? NaN;
      result.targets.push(target('emulator screenshot p50 (screen changed)', '< 60 ms', shot, 'ms', shot < 60));
      result.targets.push(target('emulator source p50 (screen changed)', '< 5 ms', source, 'ms', source < 5));
      return result;
    } finally {
      raw.close();
      await iphone.close();
    }
  },
};
