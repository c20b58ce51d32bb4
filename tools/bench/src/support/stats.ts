/** Order statistics of latency samples, in milliseconds. */
export interface Summary {
  n: number;
  p50: number;
  p95: number;
  mean: number;
}

/** Nearest-rank percentile of already sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = samples.reduce((a, b) => a + b, 0) / Math.max(1, samples.length);
  return { n: samples.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), mean };
}

export function mean(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
}

/** Milliseconds one awaited call took. */
export async function timed(fn: () => Promise<unknown> | unknown): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Rounded for the JSON (three decimals are well below what a loopback call can resolve). */
export function round(value: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Lets the event loop turn (sockets, finalizers), as a real client's pacing would. */
export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
