import type { DeviceHub } from '../hub/device-hub';
import { assertSupports, type DriverWith } from './abilities';
import { captureScreen, type CapturedScreen } from './screenshot';

/** The shortest time between two captures of `screenChanges`: at most 10 screenshots a second. */
export const SCREEN_POLL_MIN_INTERVAL_MS = 100;

/**
 * The device's own live stream of JPEG frames, read beside its queue so that it never holds up an action
 * (`unsupported_operation` when the device has none: use `screenChanges`). Ends when `signal` aborts.
 */
export function streamScreen(hub: DeviceHub, deviceId: string, signal: AbortSignal): AsyncGenerator<Uint8Array> {
  assertSupports(hub, deviceId, ['stream'], 'stream its screen');
  return hub.readBeside(deviceId, 'stream the screen', (driver, driverSignal) => (driver as DriverWith<'stream'>).stream(driverSignal), signal);
}

export interface ScreenChangesOptions {
  /** Shortest time from one capture's start to the next one's (default and minimum SCREEN_POLL_MIN_INTERVAL_MS). */
  intervalMs?: number;
}

/**
 * The screen of a device without a stream of its own: screenshots through its queue (an action waits behind
 * at most one of them), at a bounded rate, each yielded only when its bytes differ from the last one's. Ends
 * quietly when `signal` aborts; a failed capture ends it with that error.
 */
export async function* screenChanges(hub: DeviceHub, deviceId: string, signal: AbortSignal, options: ScreenChangesOptions = {}): AsyncGenerator<CapturedScreen> {
  const intervalMs = Math.max(SCREEN_POLL_MIN_INTERVAL_MS, options.intervalMs ?? SCREEN_POLL_MIN_INTERVAL_MS);
  let last: Buffer | undefined;
  while (!signal.aborted) {
    const started = Date.now();
    let shot: CapturedScreen;
    try {
      shot = await captureScreen(hub, deviceId, { signal });
    } catch (error) {
      if (signal.aborted) return;
      throw error;
    }
    if (!last || !shot.png.equals(last)) {
      last = shot.png;
      yield shot;
    }
    await pause(Math.max(0, intervalMs - (Date.now() - started)), signal);
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
