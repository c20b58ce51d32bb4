import { renderScreen } from '../testing/rendered-screen';
import { OcrService } from './ocr-service';
import type { EnginePage, OcrRecognizer } from './ocr-types';
import { TesseractPool } from './tesseract-pool';

const OCR_TIMEOUT = 120_000;
const screen = renderScreen({
  width: 200,
  height: 80,
  scale: 2,
  texts: [{ text: 'Queue', x: 10, baseline: 50, size: 24 }],
});

describe('TesseractPool queue bound', () => {
  it(
    'refuses a recognition past the waiting limit with device_busy, and drops a waiting job whose caller aborts',
    async () => {
      const pool = new TesseractPool({ size: 1, maxWaiting: 2 });
      try {
        // The worker is still starting, so every job waits.
        const first = pool.recognize(screen.png);
        const abandoned = new AbortController();
        const second = pool.recognize(screen.png, abandoned.signal);
        await expect(pool.recognize(screen.png)).rejects.toMatchObject({
          code: 'device_busy',
          retryable: true,
          hint: expect.stringContaining('Retry'),
        });
        expect(pool.waiting).toBe(2);

        abandoned.abort(new Error('client went away'));
        await expect(second).rejects.toThrow('client went away');
        expect(pool.waiting).toBe(1);
        const third = pool.recognize(screen.png);
        expect(pool.waiting).toBe(2);

        const pages = await Promise.all([first, third]);
        for (const page of pages) expect(page.lines.flat().map((word) => word.text)).toContain('Queue');
        expect(pool.recognitions).toBe(2);
      } finally {
        await pool.close();
      }
    },
    OCR_TIMEOUT,
  );

  it('refuses at once a job whose signal has already aborted', async () => {
    const pool = new TesseractPool({ size: 1 });
    const gone = AbortSignal.abort(new Error('already gone'));
    await expect(pool.recognize(screen.png, gone)).rejects.toThrow('already gone');
    expect(pool.waiting).toBe(0);
    expect(pool.workerCount).toBe(0);
    await pool.close();
  });
});

/** A recognizer whose recognitions finish when the test says so; it records the signal each was given. */
class HeldRecognizer implements OcrRecognizer {
  readonly calls: { signal?: AbortSignal; finish: (page: EnginePage) => void }[] = [];
  private called?: () => void;

  recognize(_image: Buffer, signal?: AbortSignal): Promise<EnginePage> {
    return new Promise((resolve) => {
      this.calls.push({ signal, finish: resolve });
      this.called?.();
    });
  }

  nextCall(): Promise<void> {
    return new Promise((resolve) => (this.called = resolve));
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

const PAGE: EnginePage = { lines: [[{ text: 'Queue', confidence: 95, bbox: { x0: 20, y0: 40, x1: 120, y1: 90 } }]] };

describe('OcrService cancellation of a shared recognition', () => {
  it('keeps the recognition for the callers still waiting when one gives up', async () => {
    const recognizer = new HeldRecognizer();
    const ocr = new OcrService(recognizer);
    const called = recognizer.nextCall();
    const leaving = new AbortController();
    const left = ocr.read(screen.png, screen.scale, undefined, leaving.signal);
    const staying = ocr.read(screen.png, screen.scale, undefined, new AbortController().signal);
    await called;
    leaving.abort(new Error('first caller gave up'));
    await expect(left).rejects.toThrow('first caller gave up');
    expect(recognizer.calls[0].signal?.aborted).toBe(false);
    recognizer.calls[0].finish(PAGE);
    expect((await staying).lines.map((line) => line.text)).toEqual(['Queue']);
    expect(recognizer.calls).toHaveLength(1);
  });

  it('aborts the recognition when every caller has given up, and starts afresh for the next one', async () => {
    const recognizer = new HeldRecognizer();
    const ocr = new OcrService(recognizer);
    const called = recognizer.nextCall();
    const a = new AbortController();
    const b = new AbortController();
    const readA = ocr.read(screen.png, screen.scale, undefined, a.signal);
    const readB = ocr.read(screen.png, screen.scale, undefined, b.signal);
    await called;
    a.abort(new Error('a gave up'));
    expect(recognizer.calls[0].signal?.aborted).toBe(false);
    b.abort(new Error('b gave up'));
    expect(recognizer.calls[0].signal?.aborted).toBe(true);
    await expect(readA).rejects.toThrow('a gave up');
    await expect(readB).rejects.toThrow('b gave up');

    const calledAgain = recognizer.nextCall();
    const fresh = ocr.read(screen.png, screen.scale);
    await calledAgain;
    expect(recognizer.calls).toHaveLength(2);
    recognizer.calls[1].finish(PAGE);
    expect((await fresh).lines.map((line) => line.text)).toEqual(['Queue']);
  });

  it('never aborts a recognition a caller without a signal waits for', async () => {
    const recognizer = new HeldRecognizer();
    const ocr = new OcrService(recognizer);
    const called = recognizer.nextCall();
    const patient = ocr.read(screen.png, screen.scale);
    const leaving = new AbortController();
    const left = ocr.read(screen.png, screen.scale, undefined, leaving.signal);
    await called;
    leaving.abort(new Error('gave up'));
    await expect(left).rejects.toThrow('gave up');
    expect(recognizer.calls[0].signal?.aborted).toBe(false);
    recognizer.calls[0].finish(PAGE);
    expect((await patient).lines).toHaveLength(1);
  });
});
