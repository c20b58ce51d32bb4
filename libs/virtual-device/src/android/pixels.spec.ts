import { dirname, join } from 'node:path';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { decode, pngSize, shellRun } from '../testing';
import { createVirtualAndroid } from './virtual-android';

/** What `screencap` returns: real PNGs of the profile's size, the same bytes for the same state. */
describe('virtual Android pixels', () => {
  const shot = async (device: ReturnType<typeof createVirtualAndroid>) => (await shellRun(device.backend.shell, 'screencap -p')).stdout;

  it('captures a PNG of the profile size that an independent decoder reads', async () => {
    const png = await shot(createVirtualAndroid());
    expect(pngSize(png)).toEqual({ width: 1080, height: 2400 });
    const pixels = await decode(png);
    expect([pixels.width, pixels.height]).toEqual([1080, 2400]);
    const small = await shot(createVirtualAndroid({ profile: 'small-phone' }));
    expect(pngSize(small)).toEqual({ width: 720, height: 1600 });
  });

  it('gives the same bytes for the same state, and other bytes for another', async () => {
    const a = createVirtualAndroid();
    const b = createVirtualAndroid();
    for (const d of [a, b]) await shellRun(d.backend.shell, 'am start -n com.android.settings/.Settings');
    const first = await shot(a);
    expect((await shot(b)).equals(first)).toBe(true);
    expect((await shot(a)).equals(first)).toBe(true);
    await shellRun(b.backend.shell, 'input swipe 540 1800 540 900 300');
    expect((await shot(b)).equals(first)).toBe(false);
  });

  it('writes the raw frame with its header without -p, and a PNG file with a .png name', async () => {
    const d = createVirtualAndroid({ profile: 'small-phone' });
    const raw = (await shellRun(d.backend.shell, 'screencap')).stdout;
    expect([raw.readUInt32LE(0), raw.readUInt32LE(4), raw.readUInt32LE(8)]).toEqual([720, 1600, 1]);
    expect(raw.length).toBe(16 + 720 * 1600 * 4);
    expect((await shellRun(d.backend.shell, 'screencap /sdcard/s.png')).code).toBe(0);
    expect(pngSize(Buffer.from(d.backend.files.read('/sdcard/s.png') ?? []))).toEqual({ width: 720, height: 1600 });
  });

  it('draws dark theme darker', async () => {
    const d = createVirtualAndroid();
    await shellRun(d.backend.shell, 'am start -n com.android.settings/.Settings');
    const light = await decode(await shot(d), 2.625);
    await shellRun(d.backend.shell, 'cmd uimode night yes');
    const dark = await decode(await shot(d), 2.625);
    const luminance = ([r, g, b]: number[]) => 0.2126 * r + 0.7152 * g + 0.0722 * b;
    // A point of the list background, right of the rows' text.
    expect(luminance(light.at(400, 600))).toBeGreaterThan(200);
    expect(luminance(dark.at(400, 600))).toBeLessThan(50);
  });

  it('draws nothing but black while the screen is off', async () => {
    const d = createVirtualAndroid({ profile: 'small-phone' });
    await shellRun(d.backend.shell, 'input keyevent 26');
    const off = await decode(await shot(d), 2);
    for (const [x, y] of [[10, 10], [180, 400], [350, 790]]) expect(off.at(x, y).slice(0, 3)).toEqual([0, 0, 0]);
  });

  describe('under OCR', () => {
    let worker: Worker;

    beforeAll(async () => {
      const langPath = join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
      worker = await createWorker('eng', OEM.LSTM_ONLY, { langPath, gzip: true, cacheMethod: 'none', logger: () => undefined });
      await worker.setParameters({ tessedit_pageseg_mode: PSM.SPARSE_TEXT, user_defined_dpi: '300' });
    }, 120_000);

    afterAll(async () => {
      await worker?.terminate();
    });

    it('reads the Settings rows and the permission dialog from the pixels', async () => {
      const d = createVirtualAndroid();
      await shellRun(d.backend.shell, 'am start -n com.android.settings/.Settings');
      const settings = (await worker.recognize(await shot(d))).data.text.replace(/\s+/g, ' ');
      for (const title of ['Network & internet', 'Connected devices', 'Display']) expect(settings).toContain(title);
      await shellRun(d.backend.shell, 'am start -n com.google.android.apps.maps/com.google.android.maps.MapsActivity');
      const dialog = (await worker.recognize(await shot(d))).data.text.replace(/\s+/g, ' ');
      expect(dialog).toContain('While using the app');
      expect(dialog).toContain('Only this time');
    }, 180_000);
  });
});
