import type { Rect } from '@apex/port';
import { renderScreen, type RenderedScreen } from '../testing/rendered-screen';
import { findTextInOcr } from '../text/text-finders';
import { OcrService } from './ocr-service';
import type { OcrPage } from './ocr-types';
import { TesseractPool } from './tesseract-pool';

const OCR_TIMEOUT = 120_000;

const TEXTS = [
  { text: 'Wi-Fi', x: 20, baseline: 110 },
  { text: 'Bluetooth', x: 20, baseline: 160 },
  { text: 'Airplane Mode', x: 20, baseline: 210 },
  { text: 'Hello from the web page', x: 24, baseline: 400 },
  { text: 'Privacy & Security', x: 60, baseline: 520 },
  { text: 'Small caption text', x: 20, baseline: 620, size: 13 },
  // Straddles the middle of the screen, where a two-worker pool cuts the screen into bands.
  { text: 'Across the band edge', x: 30, baseline: 433 },
];

function wordsOf(page: OcrPage): string[] {
  return page.lines.flatMap((line) => line.words.map((word) => word.text));
}

function expectNear(actual: Rect, expected: Rect, tolerance: number): void {
  expect(Math.abs(actual.x - expected.x)).toBeLessThanOrEqual(tolerance);
  expect(Math.abs(actual.y - expected.y)).toBeLessThanOrEqual(tolerance);
  expect(Math.abs(actual.x + actual.width - (expected.x + expected.width))).toBeLessThanOrEqual(tolerance);
  expect(Math.abs(actual.y + actual.height - (expected.y + expected.height))).toBeLessThanOrEqual(tolerance);
}

describe('OcrService with a real tesseract pool', () => {
  const pool = new TesseractPool({ size: 1 });
  const ocr = new OcrService(pool, 8);
  let light: RenderedScreen;
  let dark: RenderedScreen;

  beforeAll(() => {
    light = renderScreen({ texts: TEXTS });
    dark = renderScreen({ texts: TEXTS, dark: true });
  });

  afterAll(async () => {
    await pool.close();
  });

  it(
    'reads rendered words and maps their boxes to points (light)',
    async () => {
      const page = await ocr.read(light.png, light.scale);
      const words = wordsOf(page);
      for (const expected of ['Wi-Fi', 'Bluetooth', 'Airplane', 'Mode', 'Hello', 'Security', 'caption']) {
        expect(words).toContain(expected);
      }
      TEXTS.forEach((spec, i) => {
        const [match] = findTextInOcr(page, { text: spec.text });
        expect(match).toBeDefined();
        expect(match.source).toBe('ocr');
        expectNear(match.bounds, light.textBounds[i], 3);
      });
    },
    OCR_TIMEOUT,
  );

  it(
    'reads white text on a dark screen (inverted before OCR)',
    async () => {
      const page = await ocr.read(dark.png, dark.scale);
      TEXTS.forEach((spec, i) => {
        const [match] = findTextInOcr(page, { text: spec.text });
        expect(match).toBeDefined();
        expect(match.confidence).toBeGreaterThan(0.7);
        expectNear(match.bounds, dark.textBounds[i], 3);
      });
    },
    OCR_TIMEOUT,
  );

  it(
    'answers the same bytes from the cache without running the recognizer',
    async () => {
      const before = ocr.stats();
      const poolBefore = pool.recognitions;
      const again = await ocr.read(Buffer.from(light.png), light.scale);
      expect(pool.recognitions).toBe(poolBefore);
      expect(ocr.stats().recognitions).toBe(before.recognitions);
      expect(ocr.stats().cacheHits).toBe(before.cacheHits + 1);
      expect(wordsOf(again)).toContain('Bluetooth');
    },
    OCR_TIMEOUT,
  );

  it(
    'recognizes only a region when asked, in screen points',
    async () => {
      const fresh = renderScreen({ texts: TEXTS, width: 390 });
      const region = { x: 0, y: 370, width: 390, height: 50 };
      const before = pool.recognitions;
      const page = await ocr.read(fresh.png, fresh.scale, region);
      expect(pool.recognitions).toBe(before + 1);
      const words = wordsOf(page);
      expect(words).toEqual(['Hello', 'from', 'the', 'web', 'page']);
      const [match] = findTextInOcr(page, { text: 'web page' });
      const webPage = fresh.textBounds[3];
      expect(match.bounds.y).toBeGreaterThan(webPage.y - 3);
      expect(match.bounds.y + match.bounds.height).toBeLessThan(webPage.y + webPage.height + 3);
      expect(match.bounds.x).toBeGreaterThan(webPage.x + 100);
    },
    OCR_TIMEOUT,
  );

  it(
    'answers a region of a cached full screen from the cache',
    async () => {
      const before = pool.recognitions;
      const page = await ocr.read(light.png, light.scale, { x: 0, y: 140, width: 393, height: 30 });
      expect(pool.recognitions).toBe(before);
      expect(wordsOf(page)).toEqual(['Bluetooth']);
    },
    OCR_TIMEOUT,
  );

  it(
    'reads white labels on tinted buttons (blue, green) of a light screen',
    async () => {
      const panels = [
        { rect: { x: 40, y: 700, width: 300, height: 50 }, color: '#007aff', text: 'Allow While Using App' },
        { rect: { x: 40, y: 770, width: 160, height: 44 }, color: '#34c759', text: 'Continue' },
      ];
      const screen = renderScreen({ texts: TEXTS.slice(0, 2), panels });
      const page = await ocr.read(screen.png, screen.scale);
      panels.forEach((panel, i) => {
        const [match] = findTextInOcr(page, { text: panel.text });
        expect(match).toBeDefined();
        expectNear(match.bounds, screen.panelTextBounds[i], 3);
      });
    },
    OCR_TIMEOUT,
  );

  it(
    'reads only the bands it has not seen after the text moves, and merges words equal to a full read',
    async () => {
      const moved = (dy: number, extra: boolean) =>
        renderScreen({
          texts: [
            ...TEXTS.map((spec) => ({ ...spec, baseline: spec.baseline - dy })),
            ...(extra ? [{ text: 'A new row scrolled in', x: 20, baseline: 760 }] : []),
          ],
        });
      const first = moved(0, false);
      await ocr.read(first.png, first.scale);
      const before = ocr.stats();
      // Every line 30 pt higher (an even number of pixels at 1.5 px/pt), and one new line at the bottom.
      const scrolled = moved(30, true);
      const incremental = await ocr.read(scrolled.png, scrolled.scale);
      const after = ocr.stats();
      expect(after.bandsRead - before.bandsRead).toBe(1);
      expect(after.bandsReused - before.bandsReused).toBe(TEXTS.length);
      expect(incremental.lines.map((line) => line.text)).toContain('A new row scrolled in');

      const alone = new OcrService(pool, 8);
      const full = await alone.read(scrolled.png, scrolled.scale);
      expect(alone.stats().bandsReused).toBe(0);
      expect(incremental).toEqual(full);
    },
    OCR_TIMEOUT,
  );

  it('reuses one worker and stops it on close (idempotent; later reads are refused)', async () => {
    expect(pool.workerCount).toBe(1);
    await pool.close();
    await pool.close();
    expect(pool.workerCount).toBe(0);
    await expect(pool.recognize(light.png)).rejects.toMatchObject({ code: 'internal' });
  });
});

describe('OcrService with two workers (bands read two at a time)', () => {
  const pool = new TesseractPool({ size: 2 });
  const ocr = new OcrService(pool, 4);

  afterAll(async () => {
    await pool.close();
  });

  it(
    'finds the same words and boxes, each line once',
    async () => {
      const screen = renderScreen({ texts: TEXTS });
      const page = await ocr.read(screen.png, screen.scale);
      expect(pool.workerCount).toBe(2);
      expect(pool.recognitions).toBe(ocr.stats().bandsRead);
      TEXTS.forEach((spec, i) => {
        const matches = findTextInOcr(page, { text: spec.text });
        expect(matches).toHaveLength(1);
        expectNear(matches[0].bounds, screen.textBounds[i], 3);
      });
      await pool.close();
      expect(pool.workerCount).toBe(0);
    },
    OCR_TIMEOUT,
  );
});

describe('TesseractPool shutdown', () => {
  it(
    'settles a recognition that is still running when the pool closes',
    async () => {
      const pool = new TesseractPool({ size: 1 });
      const screen = renderScreen({ texts: TEXTS });
      const pending = pool.recognize(screen.png);
      while (pool.workerCount === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      await pool.close();
      await expect(pending).rejects.toMatchObject({ code: 'internal' });
      expect(pool.workerCount).toBe(0);
    },
    OCR_TIMEOUT,
  );
});
