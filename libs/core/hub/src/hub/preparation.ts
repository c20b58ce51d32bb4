import { ApexError } from '@apex/errors';

/** Seconds a client is told to wait before asking again about a device still being prepared. */
export const PREPARING_RETRY_AFTER_SECONDS = 5;

export interface PreparationWait {
  /** Hears the phase the preparation is in when the wait begins, then each new one, in a person's words. */
  onPhase?: (phase: string) => void;
  /** The caller giving up (its own timeout, a cancel, a disconnect). */
  signal?: AbortSignal;
  /** How long to wait at most; 0 answers at once. */
  timeoutMs: number;
}

/**
 * A device being made ready by its pool (this machine's discovery building and starting a phone's automation
 * agent, which takes minutes the first time): the phase it is in, each new phase to whoever waits, and how it
 * ended. The pool registers the device with it while preparing, registers it again ready (same id) and only
 * then calls `succeed()`, so a caller woken by it finds the ready device. Phases are in a person's words and
 * never name a host tool.
 */
export class DevicePreparation {
  private current: string;
  private failure: ApexError | undefined;
  private finished = false;
  private readonly listeners = new Set<(event: { phase?: string; end?: true }) => void>();

  constructor(
    readonly deviceId: string,
    firstPhase: string,
  ) {
    this.current = firstPhase;
  }

  get phase(): string {
    return this.current;
  }

  /** Still under way. */
  get preparing(): boolean {
    return !this.finished;
  }

  /** Why it failed (an ApexError naming its fix), once it has. */
  get failed(): ApexError | undefined {
    return this.failure;
  }

  enter(phase: string): void {
    if (this.finished || phase === this.current) return;
    this.current = phase;
    for (const listener of [...this.listeners]) listener({ phase });
  }

  succeed(): void {
    this.end();
  }

  fail(error: ApexError): void {
    if (this.finished) return;
    this.failure = error;
    this.end();
  }

  /**
   * Resolves once the device is ready; rejects with the preparation's own error when it failed, with
   * `device_offline` naming the phase when `timeoutMs` ends first, and with the signal's reason (or
   * `device_timeout`) when the caller gives up.
   */
  wait(options: PreparationWait): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.finished) return Promise.resolve();
    options.onPhase?.(this.current);
    if (options.timeoutMs <= 0) return Promise.reject(this.stillPreparing());
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(this.gaveUp(signal));
    return new Promise<void>((resolve, reject) => {
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        this.listeners.delete(listener);
        signal?.removeEventListener('abort', onAbort);
        settle();
      };
      const listener = (event: { phase?: string; end?: true }) => {
        if (event.phase !== undefined) options.onPhase?.(event.phase);
        if (event.end) finish(() => (this.failure ? reject(this.failure) : resolve()));
      };
      const onAbort = () => finish(() => reject(this.gaveUp(signal as AbortSignal)));
      const timer = setTimeout(() => finish(() => reject(this.stillPreparing())), options.timeoutMs);
      this.listeners.add(listener);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private end(): void {
    if (this.finished) return;
    this.finished = true;
    for (const listener of [...this.listeners]) listener({ end: true });
  }

  private stillPreparing(): ApexError {
    return new ApexError('device_offline', `Device ${this.deviceId} is still being prepared (now: ${this.current}).`, {
      hint: 'It joins on its own once ready: call again later, or wait_for_device to wait with progress (list_devices shows the phase).',
      retryable: true,
      retryAfterSeconds: PREPARING_RETRY_AFTER_SECONDS,
    });
  }

  private gaveUp(signal: AbortSignal): ApexError {
    if (signal.reason instanceof ApexError) return signal.reason;
    return new ApexError('device_timeout', `Stopped waiting for device ${this.deviceId}, still being prepared (now: ${this.current}): the caller gave up.`, {
      hint: 'Call again with a longer timeout, or wait_for_device.',
    });
  }
}
