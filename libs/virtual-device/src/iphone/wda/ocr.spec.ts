import * as path from 'node:path';
import { createCanvas, Image } from '@napi-rs/canvas';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { startVirtualIPhone, type VirtualIPhone } from '../../index';
import { parseXml, walk, WdaHttp } from '../../testing';

/** Reads the rendered Settings list back with tesseract.js (offline data) and finds every visible row title. */

const LANG_PATH = path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');

/** Lower case, with the characters OCR commonly confuses folded together. */
function normalize(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019`]/g, "'")
    .replace(/[^a-z0-9&' -]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

describe('OCR of the rendered Settings list', () => {
  let iphone: VirtualIPhone;
  let wda: WdaHttp;
  let worker: Worker;

  beforeAll(async () => {
    iphone = await startVirtualIPhone();
    wda = new WdaHttp(iphone.url);
    await wda.createSession({ 'appium:bundleId': 'com.apple.Preferences' });
    worker = await createWorker('eng', OEM.LSTM_ONLY, { langPath: LANG_PATH, gzip: true, cacheMethod: 'none', logger: () => undefined });
    await worker.setParameters({ tessedit_pageseg_mode: PSM.SPARSE_TEXT, user_defined_dpi: '300' });
  }, 120_000);

  afterAll(async () => {
    await worker?.terminate();
    await iphone?.close();
  });

  /** Titles of the rows fully on screen, according to the page source. */
  async function visibleRowTitles(): Promise<string[]> {
    const { height } = (await wda.get('/window/size')).json.value;
    const root = parseXml(await wda.source());
    return [...walk(root)]
      .filter((e) => e.tag === 'XCUIElementTypeCell' && e.attributes['visible'] === 'true')
      .filter((e) => Number(e.attributes['y']) >= 100 && Number(e.attributes['y']) + Number(e.attributes['height']) <= height)
      .map((e) => e.attributes['label'] as string);
  }

  /** The screenshot at 2/3 size (text of ~34 px height, which tesseract reads well and faster). */
  async function screenshotForOcr(): Promise<Buffer> {
    const png = Buffer.from((await wda.get('/screenshot')).json.value, 'base64');
    const image = new Image();
    image.src = png;
    const canvas = createCanvas(Math.round((image.width * 2) / 3), Math.round((image.height * 2) / 3));
    canvas.getContext('2d').drawImage(image, 0, 0, canvas.width, canvas.height);
    return canvas.toBuffer('image/png');
  }

  it('finds every visible row title, at the top and after scrolling', async () => {
    for (const scroll of [false, true]) {
      if (scroll) await wda.post(wda.s('/wda/dragfromtoforduration'), { fromX: 200, fromY: 750, toX: 200, toY: 250, duration: 0.5 });
      const titles = await visibleRowTitles();
      expect(titles.length).toBeGreaterThanOrEqual(10);
      const { data } = await worker.recognize(await screenshotForOcr());
      const text = normalize(data.text);
      const missing = titles.filter((title) => !text.includes(normalize(title)));
      expect(missing).toEqual([]);
    }
  }, 180_000);
});
