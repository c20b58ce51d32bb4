import type { OperationContext } from './define-operation';
import { DEVICE_WAIT_PROGRESS_EVERY_MS } from './limits';

export interface DeviceWaitOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Hears the phase when the wait begins, each new one, and the current one again every DEVICE_WAIT_PROGRESS_EVERY_MS. */
  onProgress?: (message: string) => void;
}

/**
 * Waits while `device` is being prepared (see the hub's `whenReady`); returns at once when it is not. Rejects
 * with the preparation's own error when it failed, `device_offline` naming the phase when the time is up.
 */
export async function waitForDevice(ctx: OperationContext, device: string, options: DeviceWaitOptions): Promise<void> {
  const { onProgress } = options;
  let phase: string | undefined;
  let repeat: NodeJS.Timeout | undefined;
  const report = (next: string) => {
    phase = next;
    onProgress?.(next);
    clearInterval(repeat);
    repeat = setInterval(() => phase !== undefined && onProgress?.(phase), DEVICE_WAIT_PROGRESS_EVERY_MS);
    repeat.unref();
  };
  try {
    await ctx.hub.whenReady(device, { timeoutMs: options.timeoutMs, signal: options.signal, onPhase: onProgress && report });
  } finally {
    clearInterval(repeat);
  }
}
