import { setMaxListeners } from 'node:events';
import type { Response } from 'express';
import { ApexError, invalidArgument } from '@apex/errors';
import { openLiveScreen, type OperationContext } from '@apex/capability';
import { HttpProblem } from './problem';
import { DEVICE_PATH_PARAM } from './routes';

/**
 * Routes that answer with media rather than an operation's JSON: the live screen (an endless MJPEG stream),
 * the kept screenshot of a task step and a finished screen recording (MP4). None is an operation of the catalog
 * (no MCP tool: a model reads screenshots with take_screenshot, recordings are named by their url); all share
 * the routes' token, Host and Origin checks.
 */
export interface MediaRoute {
  method: 'GET';
  /** Path template; `{id}` is a device id (stream), a task id (step screenshot) or a recording id. */
  path: string;
  media: 'screen-stream' | 'step-screenshot' | 'recording';
}

export const STEP_PATH_PARAM = 'n';

export const MEDIA_ROUTES: readonly MediaRoute[] = [
  { method: 'GET', path: `/devices/{${DEVICE_PATH_PARAM}}/stream`, media: 'screen-stream' },
  { method: 'GET', path: `/task/{${DEVICE_PATH_PARAM}}/steps/{${STEP_PATH_PARAM}}/screenshot`, media: 'step-screenshot' },
  { method: 'GET', path: `/recordings/{${DEVICE_PATH_PARAM}}`, media: 'recording' },
];

/** The media routes this context can serve (step screenshots only where tasks run, recordings where they are made). */
export function mediaRoutesOf(ctx: OperationContext): MediaRoute[] {
  return MEDIA_ROUTES.filter(
    (route) => (route.media !== 'step-screenshot' || ctx.stepScreenshots !== undefined) && (route.media !== 'recording' || ctx.recordings !== undefined),
  );
}

/** The part delimiter of `/devices/{id}/stream` (RFC 2046: the parts start with `--` and this). */
export const STREAM_BOUNDARY = 'apex-frame';

/** Largest step number a path may carry (far above any task's step limit). */
const MAX_STEP = 1_000_000;

export interface MediaRequest {
  ctx: OperationContext;
  res: Response;
  params: Record<string, string>;
  /** Aborts when the server stops: a stream ends then, so that a shutdown need not wait for it. */
  serverClosing: AbortSignal;
  /** Where a stream that fails after its head was sent is reported (it can only be cut then). */
  onStreamError: (error: unknown) => void;
}

export async function runMediaRoute(route: MediaRoute, request: MediaRequest): Promise<void> {
  if (route.media === 'screen-stream') await sendScreenStream(request);
  else if (route.media === 'recording') await sendRecording(request);
  else await sendStepScreenshot(request);
}

/**
 * `multipart/x-mixed-replace` of JPEG frames, each part with its Content-Type and Content-Length, until the
 * client goes away (the device's stream or screenshot polling stops with it) or the server stops. A device
 * that cannot show its screen is a problem answer, as on any route: nothing is sent before the first frame.
 * Node's request timeout covers receiving the request only, so it never cuts this long answer.
 */
async function sendScreenStream({ ctx, res, params, serverClosing, onStreamError }: MediaRequest): Promise<void> {
  const stop = new AbortController();
  const onClose = () => stop.abort();
  res.once('close', onClose);
  // One listener per open stream, removed when it ends: many viewers are no leak.
  setMaxListeners(0, serverClosing);
  serverClosing.addEventListener('abort', onClose, { once: true });
  if (serverClosing.aborted) stop.abort();
  try {
    const live = await openLiveScreen(ctx, params[DEVICE_PATH_PARAM], stop.signal);
    res.writeHead(200, {
      'Content-Type': `multipart/x-mixed-replace; boundary=${STREAM_BOUNDARY}`,
      'Cache-Control': 'no-store',
      'X-Frame-Source': live.source,
      'X-Accel-Buffering': 'no',
    });
    try {
      await writePart(res, live.first);
      for await (const frame of live.rest) {
        if (stop.signal.aborted) break;
        await writePart(res, frame);
      }
    } catch (error) {
      if (!stop.signal.aborted) onStreamError(error);
    } finally {
      res.end();
    }
  } finally {
    res.off('close', onClose);
    serverClosing.removeEventListener('abort', onClose);
    stop.abort();
  }
}

/** Writes one part; waits while the client's socket is full (frames are not queued behind a slow client). */
function writePart(res: Response, jpeg: Buffer): Promise<void> {
  if (res.destroyed) return Promise.resolve();
  const head = Buffer.from(`--${STREAM_BOUNDARY}\r\nContent-Type: image/jpeg\r\nContent-Length: ${jpeg.length}\r\n\r\n`, 'latin1');
  const fits = res.write(Buffer.concat([head, jpeg, Buffer.from('\r\n', 'latin1')]));
  if (fits) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}

/** The step's kept screenshot, looked up by the task store's own reference (the path only names the task and step). */
async function sendStepScreenshot({ ctx, res, params }: MediaRequest): Promise<void> {
  const text = params[STEP_PATH_PARAM];
  const step = Number(text);
  if (!/^\d{1,7}$/.test(text) || step < 1 || step > MAX_STEP) {
    throw invalidArgument(`The step number must be a whole number from 1, not "${text.slice(0, 20)}".`, [
      { path: STEP_PATH_PARAM, message: 'must be a whole number from 1 (steps are numbered from 1)' },
    ]);
  }
  const stepScreenshots = ctx.stepScreenshots;
  if (!stepScreenshots) throw new Error('step screenshots are not served over this context');
  const image = await stepScreenshots.stepScreenshot(params[DEVICE_PATH_PARAM], step);
  res.writeHead(200, {
    'Content-Type': image.mimeType,
    'Content-Length': image.data.length,
    // A step's screenshot never changes once taken, but it may hold private screens: keep it out of shared caches.
    'Cache-Control': 'private, max-age=3600',
  });
  res.end(image.data);
}

/**
 * A finished recording's MP4, with range requests (206 and Content-Range: a player seeks without loading it
 * all). The id is checked by the recordings themselves; the host path never leaves the server.
 */
async function sendRecording({ ctx, res, params }: MediaRequest): Promise<void> {
  const recordings = ctx.recordings;
  if (!recordings) throw new Error('recordings are not served over this context');
  const { path, bytes } = await recordings.recordingFile(params[DEVICE_PATH_PARAM]);
  await new Promise<void>((resolve, reject) => {
    res.sendFile(
      path,
      {
        acceptRanges: true,
        lastModified: false,
        // A recording never changes once finished, but it shows private screens: keep it out of shared caches.
        headers: { 'Content-Type': 'video/mp4', 'Cache-Control': 'private, max-age=3600' },
      },
      (error?: Error & { status?: number; code?: string }) => {
        if (!error || res.headersSent) resolve();
        else if (error.status === 416) {
          reject(new HttpProblem('range_not_satisfiable', `The range asked for is not within the recording's ${bytes} bytes.`, { 'Content-Range': `bytes */${bytes}` }));
        } else if (error.code === 'ENOENT' || error.status === 404) {
          // Removed between the lookup and the answer (to keep the disk bounded).
          reject(new ApexError('recording_not_found', 'The recording was removed while it was being sent.'));
        } else reject(error);
      },
    );
  });
}
