/**
 * One source of frames shared by several viewers: the source is opened once and read by one loop; every viewer
 * gets the newest frame when it is ready for one (a slow viewer skips frames, nothing queues behind it). The
 * source stops when the last viewer leaves, or ends for all of them when it ends or fails.
 */
export class SharedFrames<Kind> {
  private frame?: Buffer;
  /** How many frames have arrived; a viewer remembers the last one it took. */
  private count = 0;
  private ended = false;
  private failure?: unknown;
  private viewers = 0;
  private readonly wake = new Set<() => void>();
  private readonly stop = new AbortController();
  /** The source's kind, once its first frame has arrived; rejects when it fails before one. */
  readonly ready: Promise<Kind>;

  constructor(
    open: (signal: AbortSignal) => Promise<{ kind: Kind; first: Buffer; rest: AsyncIterable<Buffer> }>,
    /** Called once, when the frames stop for good (ended, failed, or left by the last viewer). */
    private readonly onStopped: () => void,
  ) {
    this.ready = open(this.stop.signal).then(({ kind, first, rest }) => {
      this.publish(first);
      void this.pump(rest);
      return kind;
    });
    this.ready.catch((error: unknown) => this.finish(error));
  }

  /** Viewers now. */
  get viewerCount(): number {
    return this.viewers;
  }

  /** False once the frames have stopped: a new viewer then needs a new source. */
  get open(): boolean {
    return !this.ended;
  }

  /**
   * Adds a viewer, which leaves when `signal` aborts or its frames end. Resolves once there is a frame: the
   * source's kind, the newest frame, and the ones after it.
   */
  async join(signal: AbortSignal): Promise<{ kind: Kind; first: Buffer; rest: AsyncGenerator<Buffer> }> {
    this.viewers += 1;
    let left = false;
    const leave = () => {
      if (left) return;
      left = true;
      signal.removeEventListener('abort', leave);
      this.viewers -= 1;
      if (this.viewers === 0) this.finish(undefined);
    };
    signal.addEventListener('abort', leave, { once: true });
    try {
      const kind = await untilAborted(this.ready, signal);
      const first = this.frame as Buffer;
      return { kind, first, rest: this.framesAfter(this.count, signal, leave) };
    } catch (error) {
      leave();
      throw error;
    }
  }

  private async *framesAfter(seen: number, signal: AbortSignal, leave: () => void): AsyncGenerator<Buffer> {
    try {
      while (!signal.aborted) {
        if (this.count > seen) {
          seen = this.count;
          yield this.frame as Buffer;
        } else if (this.ended) {
          if (this.failure !== undefined) throw this.failure;
          return;
        } else {
          await this.next(signal);
        }
      }
    } finally {
      leave();
    }
  }

  private next(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.wake.delete(done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      this.wake.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  private publish(frame: Buffer): void {
    this.frame = frame;
    this.count += 1;
    for (const wake of [...this.wake]) wake();
  }

  private async pump(rest: AsyncIterable<Buffer>): Promise<void> {
    try {
      for await (const frame of rest) {
        if (this.ended) return;
        this.publish(frame);
      }
      this.finish(undefined);
    } catch (error) {
      this.finish(error);
    }
  }

  private finish(failure: unknown): void {
    if (this.ended) return;
    this.ended = true;
    // A source stopped because nobody watches is no failure of anyone's.
    if (this.viewers > 0) this.failure = failure;
    this.stop.abort();
    this.onStopped();
    for (const wake of [...this.wake]) wake();
  }
}

/** `promise`, or the signal's reason once it aborts first. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}
