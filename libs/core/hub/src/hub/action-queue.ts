interface Entry {
  readonly task: () => Promise<void>;
}

/**
 * A FIFO queue that runs one task at a time: a task starts only once the one before it has settled, and
 * a failing task never blocks those behind it. A task that has not started yet can be withdrawn.
 */
export class ActionQueue {
  private readonly waiting: Entry[] = [];
  private running = false;
  private idleWaiters: (() => void)[] = [];

  /** Tasks waiting to start (the running one not included). */
  get waitingCount(): number {
    return this.waiting.length;
  }

  /** Queues `task`; the returned function withdraws it if it has not started, and says whether it did. */
  enqueue(task: () => Promise<void>): () => boolean {
    const entry: Entry = { task };
    this.waiting.push(entry);
    this.next();
    return () => {
      const index = this.waiting.indexOf(entry);
      if (index < 0) return false;
      this.waiting.splice(index, 1);
      return true;
    };
  }

  /** Resolves once nothing runs or waits. */
  idle(): Promise<void> {
    if (!this.running && this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private next(): void {
    if (this.running) return;
    const entry = this.waiting.shift();
    if (!entry) {
      for (const resolve of this.idleWaiters.splice(0)) resolve();
      return;
    }
    this.running = true;
    void Promise.resolve()
      .then(entry.task)
      .catch(() => undefined)
      .then(() => {
        this.running = false;
        this.next();
      });
  }
}
