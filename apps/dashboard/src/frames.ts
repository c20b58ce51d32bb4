import { ApiError, authHeaders, devicePath, request } from './api';
import { boundaryOf, MultipartReader } from './multipart';
import { FrameChanges } from './screen-changes';

/** How the live screen gets its frames: the device's stream, or screenshots taken one after another. */
export type FrameMode = 'stream' | 'screenshots';

export interface FrameHandlers {
  /**
   * A frame that differs from the one before, as a blob URL (the receiver revokes it once it is replaced);
   * `changed` is false for the first frame, true when the screen changed since the last one.
   */
  frame(url: string, changed: boolean): void;
  /** The device sent the same frame again (an unchanged screen). */
  repeat(): void;
  mode(mode: FrameMode): void;
  error(error: ApiError | undefined): void;
}

/** The fastest the screenshot fallback asks for frames (10/s), and how long it waits after a failure. */
const SCREENSHOT_INTERVAL_MS = 100;
const RETRY_MS = 1000;

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** Hands a frame on as new or as a repeat of the last one (across reconnections too). */
function deliver(jpeg: Uint8Array, changes: FrameChanges, handlers: FrameHandlers): void {
  const seen = changes.see(jpeg);
  if (seen === 'same') handlers.repeat();
  else handlers.frame(URL.createObjectURL(new Blob([jpeg as BlobPart], { type: 'image/jpeg' })), seen === 'changed');
}

/** Reads `GET /devices/{d}/stream`; false when the server has no such route (then the fallback runs). */
async function readStream(device: string, handlers: FrameHandlers, changes: FrameChanges, signal: AbortSignal): Promise<boolean> {
  const res = await fetch(devicePath(device, '/stream'), { headers: authHeaders(), signal, cache: 'no-store' });
  if (res.status === 404 || res.status === 405) {
    const problem = (await res.json().catch(() => ({}))) as { code?: string; detail?: string; hint?: string };
    if (problem.code === 'route_not_found' || problem.code === 'method_not_allowed') return false;
    throw new ApiError(problem.code ?? 'http_error', problem.detail ?? `HTTP ${res.status}`, problem.hint, res.status);
  }
  const boundary = boundaryOf(res.headers.get('content-type'));
  if (!res.ok || !res.body || !boundary) {
    if (res.status === 401) await request('GET', devicePath(device, '/stream'), undefined, signal); // raises the token prompt
    // A refusal is a problem answer (e.g. device_busy: the device has all the viewers it serves); a 200 is never read whole.
    const problem = (res.ok ? {} : await res.json().catch(() => ({}))) as { code?: string; detail?: string; hint?: string };
    throw new ApiError(problem.code ?? 'http_error', problem.detail ?? `The screen stream answered HTTP ${res.status}.`, problem.hint, res.status);
  }
  handlers.mode('stream');
  handlers.error(undefined);
  const parts = new MultipartReader(boundary);
  const reader = res.body.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return true;
    for (const jpeg of parts.push(value)) deliver(jpeg, changes, handlers);
  }
}

async function pollScreenshots(device: string, handlers: FrameHandlers, changes: FrameChanges, signal: AbortSignal): Promise<void> {
  handlers.mode('screenshots');
  while (!signal.aborted) {
    const started = performance.now();
    try {
      const res = await request('POST', devicePath(device, '/screenshot'), { format: 'jpeg' }, signal);
      deliver(new Uint8Array(await res.arrayBuffer()), changes, handlers);
      handlers.error(undefined);
      await wait(Math.max(0, SCREENSHOT_INTERVAL_MS - (performance.now() - started)), signal);
    } catch (error) {
      if (signal.aborted) return;
      handlers.error(error instanceof ApiError ? error : new ApiError('internal', String(error)));
      if (error instanceof ApiError && error.status === 401) return;
      await wait(RETRY_MS, signal);
    }
  }
}

/** Starts the frames of one device; the returned function stops them. */
export function startFrames(device: string, handlers: FrameHandlers): () => void {
  const controller = new AbortController();
  const { signal } = controller;
  const changes = new FrameChanges();
  void (async () => {
    while (!signal.aborted) {
      try {
        if (!(await readStream(device, handlers, changes, signal))) {
          await pollScreenshots(device, handlers, changes, signal);
          return;
        }
      } catch (error) {
        if (signal.aborted) return;
        handlers.error(error instanceof ApiError ? error : new ApiError('network', 'The screen stream was interrupted.'));
        if (error instanceof ApiError && error.status === 401) return;
      }
      // The stream ended or failed: open it again shortly.
      await wait(RETRY_MS, signal);
    }
  })();
  return () => controller.abort();
}
