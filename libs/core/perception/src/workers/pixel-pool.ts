import { cpus } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ApexError } from '@apex/errors';
import type { ScreenEdges } from '../icons/screen-edges';
import type { PerceptionLogger } from '../types';
import { scoreJobs, screenSearchImages, type GrayImage, type ScoreJob, type ScoreMap, type SearchImage } from './pixel-kernels';

export type { ScoreJob } from './pixel-kernels';

/** Where the heavy pixel arithmetic of icon matching runs. */
export interface PixelEngine {
  /** Edge maps of a screen's grey image (1 px/pt). */
  screenImages(gray: GrayImage): Promise<ScreenEdges>;
  /** One score map per job, all against `target` (undefined where nothing can match). */
  scores(target: SearchImage, jobs: readonly ScoreJob[]): Promise<(ScoreMap | undefined)[]>;
}

/** The same kernels on this thread, blocking it: the reference the worker pool is compared with. */
export const inlinePixels: PixelEngine = {
  screenImages: async (gray) => screenSearchImages(gray),
  scores: async (target, jobs) => scoreJobs(target, jobs),
};

export interface PixelPoolOptions {
  /** Worker threads at most; default 1 on ≤ 2 cores, else 2. */
  size?: number;
  logger?: PerceptionLogger;
}

/** More threads than this only compete with the OCR workers and the event loop. */
const MAX_THREADS = 4;
const WORKER_FILE = join(__dirname, 'pixel-worker.js');

interface Pending {
  resolve: (result: never) => void;
  reject: (error: unknown) => void;
}

interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
}

type Request =
  | { kind: 'screen'; gray: GrayImage }
  | { kind: 'scores'; target: SearchImage; jobs: readonly ScoreJob[] };

/**
 * Worker threads for the pixel arithmetic, so matching a large template never blocks the event loop. Threads
 * start on first use, up to `size`; a request goes to an idle thread, else a new one, else the least loaded.
 * Screens travel in shared memory (no copy). An idle thread does not keep the process alive; `close()`
 * terminates them all.
 */
export class PixelPool implements PixelEngine {
  private readonly size: number;
  private readonly threads: Thread[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: PixelPoolOptions = {}) {
    this.size = Math.min(MAX_THREADS, Math.max(1, Math.floor(options.size ?? (cpus().length <= 2 ? 1 : 2))));
  }

  /** Threads alive now. */
  get workerCount(): number {
    return this.threads.length;
  }

  screenImages(gray: GrayImage): Promise<ScreenEdges> {
    // The grey image is not needed here afterwards: moved, not copied.
    return this.send({ kind: 'screen', gray }, [gray.data.buffer as ArrayBuffer]);
  }

  scores(target: SearchImage, jobs: readonly ScoreJob[]): Promise<(ScoreMap | undefined)[]> {
    if (jobs.length === 0) return Promise.resolve([]);
    return this.send({ kind: 'scores', target, jobs });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const threads = this.threads.splice(0);
    for (const thread of threads) this.failAll(thread, shutDown('Icon matching was shut down before this request finished.'));
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }

  private send<T>(request: Request, transfer: ArrayBuffer[] = []): Promise<T> {
    if (this.closed) return Promise.reject(shutDown('Icon matching has been shut down.'));
    const thread = this.pick();
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      thread.pending.set(id, { resolve: resolve as (result: never) => void, reject });
      thread.worker.ref();
      thread.worker.postMessage({ id, ...request }, transfer);
    });
  }

  private pick(): Thread {
    const idle = this.threads.find((thread) => thread.pending.size === 0);
    if (idle) return idle;
    if (this.threads.length < this.size) return this.start();
    return this.threads.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
  }

  private start(): Thread {
    const thread: Thread = { worker: new Worker(WORKER_FILE), pending: new Map() };
    this.threads.push(thread);
    thread.worker.on('message', (message: { id: number; result?: unknown; error?: string }) => {
      const pending = thread.pending.get(message.id);
      if (!pending) return;
      thread.pending.delete(message.id);
      if (thread.pending.size === 0) thread.worker.unref();
      if (message.error === undefined) pending.resolve(message.result as never);
      else pending.reject(matchingFailed(new Error(message.error)));
    });
    thread.worker.on('error', (cause) => {
      this.options.logger?.error({ err: cause }, 'Icon matching worker failed');
      this.failAll(thread, matchingFailed(cause));
    });
    thread.worker.on('exit', () => {
      const index = this.threads.indexOf(thread);
      if (index >= 0) this.threads.splice(index, 1);
      this.failAll(thread, new ApexError('internal', 'Icon matching stopped before this request finished.'));
    });
    this.options.logger?.debug({ workers: this.threads.length }, 'Icon matching worker started');
    return thread;
  }

  private failAll(thread: Thread, error: ApexError): void {
    for (const pending of thread.pending.values()) pending.reject(error);
    thread.pending.clear();
  }
}

function matchingFailed(cause: unknown): ApexError {
  return new ApexError('internal', 'Matching the icon in the screenshot failed.', { cause });
}

function shutDown(message: string): ApexError {
  return new ApexError('internal', message);
}
