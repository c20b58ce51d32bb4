import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ApexError, invalidArgument } from '@apex/errors';

/** A flow file as plain data, or its YAML errors ("line L, column C: …"). */
export type YamlRead = { value: unknown } | { errors: string[] };

/** Longest a flow file may take to read before it is refused as too complex (the thread is then replaced). */
const READ_TIMEOUT_MS = 10_000;
const WORKER_FILE = join(__dirname, 'flow-yaml-worker.js');

interface Pending {
  resolve: (result: never) => void;
  reject: (error: unknown) => void;
  timer: NodeJS.Timeout;
}

/**
 * Reads flow YAML on one worker thread, so no flow a client sends holds the event loop: files queue on the
 * thread, one at a time. The thread starts on first use and does not keep the process alive while idle; a
 * file that takes longer than READ_TIMEOUT_MS ends the thread (a new one starts for the next file).
 */
class FlowYamlThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  read(source: string): Promise<YamlRead> {
    return this.send({ kind: 'read', source });
  }

  /** "line L, column C" of the node each path names, for the schema's issues. */
  positions(source: string, paths: readonly (string | number)[][]): Promise<(string | undefined)[]> {
    return this.send({ kind: 'positions', source, paths });
  }

  private send<T>(request: Record<string, unknown>): Promise<T> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.stop(invalidArgument(`The flow took more than ${READ_TIMEOUT_MS / 1000} s to read: it is too complex.`, undefined, 'A flow is a page of steps: write them out plainly.'));
      }, READ_TIMEOUT_MS);
      timer.unref();
      this.pending.set(id, { resolve: resolve as (result: never) => void, reject, timer });
      worker.ref();
      worker.postMessage({ id, ...request });
    });
  }

  private start(): Worker {
    const worker = new Worker(WORKER_FILE);
    this.worker = worker;
    worker.on('message', (message: { id: number; result?: unknown; error?: string }) => {
      const pending = this.pending.get(message.id);
      if (!pending) return;
      this.settle(message.id);
      if (this.pending.size === 0) worker.unref();
      if (message.error === undefined) pending.resolve(message.result as never);
      else pending.reject(invalidArgument(`The flow could not be read: ${message.error}.`));
    });
    worker.on('error', (cause) => this.stop(new ApexError('internal', 'Reading the flow failed.', { cause })));
    worker.on('exit', () => {
      if (this.worker === worker) this.stop(new ApexError('internal', 'Reading the flow stopped before it finished.', { retryable: true }));
    });
    worker.unref();
    return worker;
  }

  private settle(id: number): void {
    const pending = this.pending.get(id);
    if (pending) clearTimeout(pending.timer);
    this.pending.delete(id);
  }

  /** Fails every waiting read and ends the thread. */
  private stop(error: ApexError): void {
    const worker = this.worker;
    this.worker = undefined;
    for (const [id, pending] of [...this.pending]) {
      this.settle(id);
      pending.reject(error);
    }
    void worker?.terminate();
  }
}

/** The process's one flow-reading thread. */
export const flowYamlThread = new FlowYamlThread();
