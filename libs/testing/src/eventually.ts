export interface EventuallyOptions {
  /** How long to keep trying; generous, because a shared machine can be slow. Not a timing assertion. */
  timeoutMs: number;
  /** Pause between tries. Default 25 ms. */
  intervalMs?: number;
  /** What is awaited, for the error on the deadline. */
  what?: string;
}

/**
 * Polls `check` until it returns a truthy value without throwing, and resolves with that value (a throw or a
 * falsy value means "not yet"); on the deadline it throws, naming `what` and the last error. For waiting on
 * background work, never for measuring time.
 */
export async function eventually<T>(check: () => T | Promise<T>, options: EventuallyOptions): Promise<T> {
  const { timeoutMs, intervalMs = 25, what = 'the condition' } = options;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const why = lastError === undefined ? 'it stayed false' : `last error: ${describe(lastError)}`;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (${why})`, { cause: lastError });
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
