/**
 * Fault injection for tests: off until a caller enables a fault. Counters are consumed per WDA request
 * (admin requests never count). The server asks `decide()` once per request and waits in `delay()`.
 */

export interface FaultState {
  /** Added before every WDA response. */
  latencyMs: number;
  /** Requests still to be answered with `500 unknown error` (without running the command). */
  failNext: number;
  /** Requests still to be dropped: the socket is destroyed without a response (the command does not run). */
  dropNext: number;
  /** Responses still to be malformed: the command runs, then a 200 with a body that is not JSON is sent. */
  malformNext: number;
  /** True while the server is not listening. */
  offline: boolean;
  /** How many simulated WDA restarts have happened. */
  restarts: number;
}

export interface FaultController {
  setLatency(ms: number): void;
  failNext(count: number): void;
  dropNext(count: number): void;
  malformNext(count: number): void;
  /** Simulates WDA restarting: the active session becomes invalid (404 invalid session id). */
  restart(): void;
  /** Stops listening: connections are refused until `comeBack()`. */
  goOffline(): Promise<void>;
  /** Listens again on the same port. */
  comeBack(): Promise<void>;
  /** Clears every fault (and releases requests waiting out a latency; an offline server listens again). */
  reset(): void;
  readonly state: Readonly<FaultState>;
}

/** What the server must do with one WDA request. */
export type FaultDecision = 'drop' | 'fail' | 'malform' | 'pass';

/** The server-side hooks the controller drives. */
export interface FaultHost {
  endSession(): void;
  stopListening(): Promise<void>;
  startListening(): Promise<void>;
}

function count(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`${what} must be a non-negative integer, got ${value}`);
  return value;
}

export class Faults implements FaultController {
  private current: FaultState = { latencyMs: 0, failNext: 0, dropNext: 0, malformNext: 0, offline: false, restarts: 0 };
  private readonly waiting = new Set<() => void>();
  private offlineTimer: NodeJS.Timeout | null = null;
  private comingBack: Promise<void> | null = null;

  constructor(private readonly host: FaultHost) {}

  get state(): Readonly<FaultState> {
    return { ...this.current };
  }

  setLatency(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`latency must be a non-negative number of ms, got ${ms}`);
    this.current.latencyMs = ms;
    if (ms === 0) this.releaseWaiting();
  }

  failNext(n: number): void {
    this.current.failNext = count(n, 'failNext');
  }

  dropNext(n: number): void {
    this.current.dropNext = count(n, 'dropNext');
  }

  malformNext(n: number): void {
    this.current.malformNext = count(n, 'malformNext');
  }

  restart(): void {
    this.current.restarts++;
    this.host.endSession();
  }

  async goOffline(): Promise<void> {
    if (this.comingBack) await this.comingBack;
    if (this.current.offline) return;
    this.current.offline = true;
    await this.host.stopListening();
  }

  comeBack(): Promise<void> {
    this.clearOfflineTimer();
    if (!this.current.offline) return Promise.resolve();
    // Several callers (a timer, reset(), a test) may ask at once: listen only once.
    this.comingBack ??= this.host.startListening().then(
      () => {
        this.current.offline = false;
        this.comingBack = null;
      },
      (error: unknown) => {
        this.comingBack = null;
        throw error;
      },
    );
    return this.comingBack;
  }

  /** Goes offline now and comes back by itself after `ms` (errors coming back are reported to `onError`). */
  async offlineFor(ms: number, onError: (error: unknown) => void): Promise<void> {
    await this.goOffline();
    this.clearOfflineTimer();
    this.offlineTimer = setTimeout(() => {
      this.offlineTimer = null;
      this.comeBack().catch(onError);
    }, ms);
  }

  /** Clears every fault: counters and latency at once; an offline server starts listening again (await `comeBack()` to know when). */
  reset(): void {
    const { restarts, offline } = this.current;
    this.current = { latencyMs: 0, failNext: 0, dropNext: 0, malformNext: 0, offline, restarts };
    this.releaseWaiting();
    if (offline) this.comeBack().catch(() => undefined);
  }

  /** Consumes one pending fault for a WDA request: drop first, then fail, then malform. */
  decide(): FaultDecision {
    if (this.current.dropNext > 0) {
      this.current.dropNext--;
      return 'drop';
    }
    if (this.current.failNext > 0) {
      this.current.failNext--;
      return 'fail';
    }
    if (this.current.malformNext > 0) {
      this.current.malformNext--;
      return 'malform';
    }
    return 'pass';
  }

  /** Waits out the configured latency; `reset()` or `setLatency(0)` releases waiting requests at once. */
  delay(): Promise<void> {
    const ms = this.current.latencyMs;
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const release = () => {
        clearTimeout(timer);
        this.waiting.delete(release);
        resolve();
      };
      const timer = setTimeout(release, ms);
      this.waiting.add(release);
    });
  }

  /** Number of requests currently held back by latency (for tests and the admin state). */
  get delayedRequests(): number {
    return this.waiting.size;
  }

  /** Stops timers (server shutdown). */
  dispose(): void {
    this.clearOfflineTimer();
    this.releaseWaiting();
  }

  private releaseWaiting(): void {
    for (const release of [...this.waiting]) release();
  }

  private clearOfflineTimer(): void {
    if (this.offlineTimer) clearTimeout(this.offlineTimer);
    this.offlineTimer = null;
  }
}
