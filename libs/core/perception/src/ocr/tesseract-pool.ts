import { cpus } from 'node:os';
import { ApexError } from '@apex/errors';
import type { Worker } from 'tesseract.js';
import type { PerceptionLogger } from '../types';
import { englishLangPath } from './lang-data';
import type { EnginePage, EngineWord, OcrRecognizer } from './ocr-types';

export interface TesseractPoolOptions {
  /** Workers at most, started as jobs wait for them; default 2 (1 on a single core). */
  size?: number;
  /** Per recognition; a worker that overruns is terminated and replaced. Default 120 s. */
  timeoutMs?: number;
  /** Recognitions that may wait for a worker; one more is refused with `device_busy`. Default 8. */
  maxWaiting?: number;
  logger?: PerceptionLogger;
}

/** Each worker holds ~150 MB; more than this is never useful for one screen. */
const MAX_WORKERS = 8;
/**
 * A full screen is read band by band, so two workers read it in about half the time even on two cores (the
 * dense Safari page: 628 → 366 ms, the same CPU time); the second starts only when two reads wait at once.
 */
const DEFAULT_WORKERS = Math.min(2, cpus().length);
/** A full screen takes ~1–3 s to read on one worker: more waiting than this is better refused than queued. */
const DEFAULT_MAX_WAITING = 8;

interface Job {
  image: Buffer;
  timer?: NodeJS.Timeout;
  /** Detaches the caller's abort listener. */
  release?: () => void;
  /** Settling twice is harmless: a promise keeps its first outcome. */
  resolve: (page: EnginePage) => void;
  reject: (error: unknown) => void;
}

/**
 * Reused tesseract.js workers (LSTM, English, offline data). Workers start on first use, up to `size`; jobs
 * wait in a bounded FIFO queue for an idle worker (full → `device_busy`), and a waiting job whose caller aborts
 * leaves it. `close()` terminates them all so the process can exit.
 */
export class TesseractPool implements OcrRecognizer {
  private readonly size: number;
  private readonly timeoutMs: number;
  private readonly maxWaiting: number;
  private readonly idle: Worker[] = [];
  private readonly queue: Job[] = [];
  private readonly all = new Set<Worker>();
  /** Jobs a worker is on now, so close() can settle them instead of leaving callers waiting. */
  private readonly running = new Set<Job>();
  private starting = 0;
  private closed = false;
  /** Recognitions run (not counting cache hits, which never reach the pool). */
  recognitions = 0;

  constructor(private readonly options: TesseractPoolOptions = {}) {
    this.size = Math.min(MAX_WORKERS, Math.max(1, Math.floor(options.size ?? DEFAULT_WORKERS)));
    this.timeoutMs = options.timeoutMs ?? 120_000;
    this.maxWaiting = Math.max(1, Math.floor(options.maxWaiting ?? DEFAULT_MAX_WAITING));
  }

  get parallelism(): number {
    return this.size;
  }

  /** Workers alive now. */
  get workerCount(): number {
    return this.all.size;
  }

  /** Jobs waiting for a worker now. */
  get waiting(): number {
    return this.queue.length;
  }

  /** `signal`: the caller gave up; a job still waiting is dropped (one already running finishes). */
  recognize(image: Buffer, signal?: AbortSignal): Promise<EnginePage> {
    if (this.closed) return Promise.reject(new ApexError('internal', 'Text recognition has been shut down.'));
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.queue.length >= this.maxWaiting) {
      return Promise.reject(
        new ApexError('device_busy', `Text recognition is saturated: ${this.queue.length} reads are already waiting.`, {
          retryable: true,
          hint: 'Retry in a few seconds, or read a smaller region.',
        }),
      );
    }
    return new Promise<EnginePage>((resolve, reject) => {
      const job: Job = { image, resolve, reject };
      if (signal) {
        const onAbort = () => {
          const index = this.queue.indexOf(job);
          if (index < 0) return;
          this.queue.splice(index, 1);
          reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        job.release = () => signal.removeEventListener('abort', onAbort);
      }
      this.queue.push(job);
      this.pump();
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const job of [...this.queue.splice(0), ...this.running]) {
      clearTimeout(job.timer);
      job.release?.();
      job.reject(new ApexError('internal', 'Text recognition was shut down before this request finished.'));
    }
    this.running.clear();
    // Workers still starting terminate themselves when they come up (see startWorker).
    await Promise.all([...this.all].map((worker) => this.terminate(worker)));
    this.idle.length = 0;
  }

  private pump(): void {
    while (this.queue.length > 0 && this.idle.length > 0) {
      const worker = this.idle.pop() as Worker;
      const job = this.queue.shift() as Job;
      job.release?.();
      void this.run(worker, job);
    }
    const wanted = Math.min(this.queue.length, this.size - this.all.size - this.starting);
    for (let i = 0; i < wanted; i++) void this.startWorker();
  }

  private async startWorker(): Promise<void> {
    this.starting += 1;
    try {
      // Required with the first worker, not at start-up (tesseract.js is only for pixels).
      const { createWorker, OEM, PSM } = require('tesseract.js') as typeof import('tesseract.js');
      const worker = await createWorker('eng', OEM.LSTM_ONLY, {
        langPath: englishLangPath(),
        gzip: true,
        cacheMethod: 'none',
        logger: () => undefined,
        errorHandler: (error: unknown) => this.options.logger?.warn({ err: error }, 'OCR worker error'),
      });
      await worker.setParameters({
        // Sparse text: UI screens are scattered labels, not paragraphs.
        tessedit_pageseg_mode: PSM.SPARSE_TEXT,
        user_defined_dpi: '144',
        // Tesseract's own chatter ("Detected N diacritics") would otherwise reach stdout.
        debug_file: '/dev/null',
      });
      this.starting -= 1;
      if (this.closed) {
        await worker.terminate();
        return;
      }
      this.all.add(worker);
      this.idle.push(worker);
      this.options.logger?.debug({ workers: this.all.size }, 'OCR worker started');
    } catch (cause) {
      this.starting -= 1;
      const error = new ApexError('internal', 'Could not start text recognition.', { cause });
      // Fail the waiting jobs only if no worker will ever serve them.
      if (this.all.size === 0 && this.starting === 0) {
        for (const job of this.queue.splice(0)) {
          job.release?.();
          job.reject(error);
        }
      }
      this.options.logger?.error({ err: cause }, 'OCR worker failed to start');
      return;
    }
    this.pump();
  }

  private async run(worker: Worker, job: Job): Promise<void> {
    this.recognitions += 1;
    this.running.add(job);
    const timeout = new Promise<never>((_, reject) => {
      job.timer = setTimeout(() => reject(new TimeoutError()), this.timeoutMs);
    });
    try {
      const result = await Promise.race([worker.recognize(job.image, {}, { blocks: true, text: false }), timeout]);
      job.resolve(toEnginePage(result.data.blocks));
      this.release(worker);
    } catch (cause) {
      if (cause instanceof TimeoutError) {
        job.reject(
          new ApexError('internal', `Reading text from the screen took longer than ${this.timeoutMs} ms.`, {
            retryable: true,
          }),
        );
        await this.terminate(worker);
        this.pump();
      } else {
        job.reject(new ApexError('internal', 'Text recognition failed on this image.', { cause }));
        this.release(worker);
      }
    } finally {
      clearTimeout(job.timer);
      this.running.delete(job);
    }
  }

  private release(worker: Worker): void {
    if (this.closed) return;
    this.idle.push(worker);
    this.pump();
  }

  private async terminate(worker: Worker): Promise<void> {
    this.all.delete(worker);
    const index = this.idle.indexOf(worker);
    if (index >= 0) this.idle.splice(index, 1);
    try {
      await worker.terminate();
    } catch (cause) {
      this.options.logger?.warn({ err: cause }, 'OCR worker did not terminate cleanly');
    }
  }
}

class TimeoutError extends Error {}

type TesseractBlocks = Awaited<ReturnType<Worker['recognize']>>['data']['blocks'];

function toEnginePage(blocks: TesseractBlocks): EnginePage {
  const lines: EngineWord[][] = [];
  for (const block of blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        lines.push(line.words.map((word) => ({ text: word.text, confidence: word.confidence, bbox: { ...word.bbox } })));
      }
    }
  }
  return { lines };
}
