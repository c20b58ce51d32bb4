import { ApexError, isApexError } from '@apex/errors';

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

export interface CallLimits {
  timeoutMs: number;
  /** The abort reason when the time is up. */
  onTimeout: () => ApexError;
  /** The caller's own signal: when it aborts, so does the call. */
  callerSignal?: AbortSignal;
  /** The abort reason when the caller gives up. */
  onGiveUp?: () => ApexError;
}

/**
 * Calls `fn` with a signal that aborts when the time is up or the caller gives up. `onAbort` hears the abort
 * reason at once; the returned promise settles only when `fn` has (until then the device is still busy with
 * the call), with fn's outcome, or `undefined` when the signal aborted first (that outcome is stale).
 */
export async function callWithin<T>(
  fn: (signal: AbortSignal) => Promise<T>,
  limits: CallLimits,
  onAbort: (reason: unknown) => void,
): Promise<Outcome<T> | undefined> {
  const controller = new AbortController();
  const { signal } = controller;
  const reportAbort = () => onAbort(signal.reason);
  signal.addEventListener('abort', reportAbort, { once: true });
  const timer = setTimeout(() => controller.abort(limits.onTimeout()), limits.timeoutMs);
  const giveUp = () => controller.abort(limits.onGiveUp?.() ?? limits.onTimeout());
  limits.callerSignal?.addEventListener('abort', giveUp, { once: true });
  let outcome: Outcome<T>;
  try {
    outcome = { ok: true, value: await Promise.resolve().then(() => fn(signal)) };
  } catch (error) {
    outcome = { ok: false, error };
  } finally {
    clearTimeout(timer);
    limits.callerSignal?.removeEventListener('abort', giveUp);
    signal.removeEventListener('abort', reportAbort);
  }
  return signal.aborted ? undefined : outcome;
}

export function deviceTimeout(deviceId: string, action: string, timeoutMs: number): ApexError {
  return new ApexError(
    'device_timeout',
    `Device ${deviceId} did not finish "${action}" within ${timeoutMs} ms.`,
    { hint: 'The device may be slow or stuck; retry, and check the device if it keeps happening.' },
  );
}

/** Why a caller's action ended when the caller's signal aborted: its reason when that is an ApexError. */
export function gaveUp(deviceId: string, action: string, signal: AbortSignal, started: boolean): ApexError {
  const reason: unknown = signal.reason;
  if (isApexError(reason)) return reason;
  return started
    ? new ApexError('device_timeout', `The caller gave up on "${action}" on device ${deviceId} before it finished.`, {
        hint: 'The device may have carried the action out; look at the screen before repeating it.',
      })
    : new ApexError('device_timeout', `The caller gave up on "${action}" on device ${deviceId} before it started.`, {
        hint: 'Nothing was sent to the device.',
      });
}
