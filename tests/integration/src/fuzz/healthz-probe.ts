import { httpClient } from './faces';

export interface LatencySummary {
  samples: number;
  p50: number;
  p99: number;
  max: number;
  failures: number;
}

/** The `q` quantile (0..1) of sorted numbers, nearest rank. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number;
}

/**
 * Polls GET /healthz one request after another on its own connection until stopped, timing each answer. The
 * server runs in this process, so an event loop blocked by a request shows up here as latency.
 */
export function startHealthzProbe(base: string): { stop(): Promise<LatencySummary> } {
  const client = httpClient(base, 1);
  const latencies: number[] = [];
  let failures = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const answer = await client.send('GET', '/healthz');
        if (answer.status === 200) latencies.push(performance.now() - started);
        else failures += 1;
      } catch {
        failures += 1;
      }
      // Yield to the rest of the process between probes, so that the probe is a witness, not the load.
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      client.close();
      const sorted = [...latencies].sort((a, b) => a - b);
      const max = sorted.at(-1) ?? NaN;
      return { samples: sorted.length, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max, failures };
    },
  };
}
