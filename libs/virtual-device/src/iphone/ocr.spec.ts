import { dirname, join } from 'node:path';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { createPhone, SETTINGS_BUNDLE_ID, SETTINGS_ROW_TITLES } from './index';

/** OCR (offline tesseract.js data) reads text back from the rendered pixels. */
describe('phone pixels under OCR', () => {
  let worker: Worker;

  beforeAll(async () => {
    const langPath = join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
    worker = await createWorker('eng', OEM.LSTM_ONLY, { langPath, gzip: true, cacheMethod: 'none', logger: () => undefined });
    // A stated dpi also keeps tesseract from printing its resolution estimate.
    await worker.setParameters({ tessedit_pageseg_mode: PSM.SPARSE_TEXT, user_defined_dpi: '216' });
  }, 120_000);

  afterAll(async () => {
    await worker?.terminate();
  });

  it('finds every row title while scrolling down the list', async () => {
    const phone = createPhone();
    phone.launchApp(SETTINGS_BUNDLE_ID);
    const seen: string[] = [];
    for (let screen = 0; screen < 4; screen++) {
      const { data } = await worker.recognize(phone.renderPng());
      seen.push(data.text);
      phone.drag(200, 750, 200, 250, 0.3);
    }
    const text = seen.join('\n').replace(/\s+/g, ' ');
    const missing = SETTINGS_ROW_TITLES.filter((title) => !text.includes(title));
    expect(missing).toEqual([]);
  }, 180_000);

  it('reads the Safari page text that the accessibility tree does not have', async () => {
    const phone = createPhone();
    phone.launchApp('com.apple.mobilesafari');
    const { data } = await worker.recognize(phone.renderPng());
    const text = data.text.replace(/\s+/g, ' ');
    expect(text).toContain('Welcome to Apex');
    expect(text).toContain('What you can do');
  }, 120_000);
});
