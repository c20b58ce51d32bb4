import { connect, type Socket } from 'node:net';
import { ApexError } from '@apex/errors';
import { MjpegFormatError, MultipartFrameReader } from './multipart-frames';

export interface ScreenStreamSource {
  deviceId: string;
  /** Where the phone's MJPEG server listens (a raw TCP listener that answers any bytes). */
  url: URL;
  /** Bound on the TCP connect. */
  connectTimeoutMs: number;
}

/** Frames a slow reader has not taken yet; older ones are dropped, as a live view wants the newest screen. */
const MAX_PENDING_FRAMES = 2;

/**
 * The phone's screen as JPEG frames read from its MJPEG server, until `signal` aborts (then it ends quietly)
 * or the server closes the stream. The socket is closed whenever the reader stops. Failures are ApexErrors:
 * `device_offline` when the stream cannot be reached, `device_error` when it is not an MJPEG stream.
 */
export async function* readScreenStream(source: ScreenStreamSource, signal: AbortSignal): AsyncGenerator<Uint8Array> {
  if (signal.aborted) return;
  const { url, deviceId } = source;
  const where = `${url.hostname}:${url.port || 80}`;
  const reader = new MultipartFrameReader();
  const pending: Buffer[] = [];
  let failure: ApexError | undefined;
  let ended = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };

  const socket: Socket = connect({ host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(url.port || 80) });
  const connectTimer = setTimeout(() => {
    failure ??= unreachable(deviceId, where, `no connection within ${source.connectTimeoutMs} ms`);
    socket.destroy();
  }, source.connectTimeoutMs);
  socket.once('connect', () => {
    connected = true;
    clearTimeout(connectTimer);
    // Any bytes start the stream; a plain HTTP request also suits proxies in front of the phone.
    socket.write(`GET ${url.pathname || '/'}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: multipart/x-mixed-replace\r\n\r\n`);
  });
  socket.on('data', (chunk: Buffer) => {
    try {
      for (const frame of reader.push(chunk)) {
        pending.push(frame);
        if (pending.length > MAX_PENDING_FRAMES) pending.shift();
      }
    } catch (error) {
      failure ??= new ApexError('device_error', `Device ${deviceId} sent a screen stream that could not be read.`, {
        hint: 'Check that the configured stream address is the phone\'s MJPEG stream.',
        cause: error instanceof MjpegFormatError ? error : undefined,
      });
      socket.destroy();
    }
    notify();
  });
  let connected = false;
  socket.on('error', (error: NodeJS.ErrnoException) => {
    // Once streaming, a reset is the stream ending (the device's own choice or a restart): the reader just stops.
    if (!connected) failure ??= unreachable(deviceId, where, error.code ?? error.message);
  });
  socket.on('close', () => {
    clearTimeout(connectTimer);
    ended = true;
    notify();
  });
  const onAbort = () => {
    socket.destroy();
    notify();
  };
  signal.addEventListener('abort', onAbort, { once: true });
  let yielded = 0;
  try {
    for (;;) {
      if (signal.aborted) return;
      const frame = pending.shift();
      if (frame) {
        yielded++;
        yield frame;
        continue;
      }
      if (failure) throw failure;
      if (ended && yielded === 0) throw unreachable(deviceId, where, 'closed before the first frame');
      if (ended) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    clearTimeout(connectTimer);
    socket.destroy();
  }
}

function unreachable(deviceId: string, where: string, detail: string): ApexError {
  return new ApexError('device_offline', `Device ${deviceId}'s screen stream at ${where} is not reachable.`, {
    hint: 'Check that the phone streams its screen on that port (or remove the stream setting to use screenshots).',
    cause: new Error(detail),
  });
}
