export interface BackoffOptions {
  /** First wait after a device goes offline. Default 250 ms. */
  initialMs?: number;
  /** Longest wait between reconnect attempts. Default 10 s. */
  maxMs?: number;
}

/** Exponential back-off: initial, 2×, 4×, … capped at max; reset on success. */
export class Backoff {
  private readonly initialMs: number;
  private readonly maxMs: number;
  private nextDelayMs: number;

  constructor(options: BackoffOptions = {}) {
    this.initialMs = options.initialMs ?? 250;
    this.maxMs = options.maxMs ?? 10_000;
    this.nextDelayMs = this.initialMs;
  }

  /** The delay before the next attempt; each call doubles the one after it. */
  next(): number {
    const delay = this.nextDelayMs;
    this.nextDelayMs = Math.min(this.nextDelayMs * 2, this.maxMs);
    return delay;
  }

  reset(): void {
    this.nextDelayMs = this.initialMs;
  }
}
