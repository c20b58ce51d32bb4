/**
 * A FIFO queue that runs one task at a time. A task's failure never blocks the tasks behind it: each task
 * settles its own promise and the chain continues.
 */
export class SerialQueue {
  private tail: Promise<void> = Promise.resolve();
  private pendingCount = 0;

  /** Tasks waiting or running. */
  get size(): number {
    return this.pendingCount;
  }

  push<T>(task: () => Promise<T>): Promise<T> {
    this.pendingCount += 1;
    const result = this.tail.then(task);
    const done = () => {
      this.pendingCount -= 1;
    };
    this.tail = result.then(done, done);
    return result;
  }

  /** Resolves once every task queued so far has settled. */
  idle(): Promise<void> {
    return this.tail;
  }
}
