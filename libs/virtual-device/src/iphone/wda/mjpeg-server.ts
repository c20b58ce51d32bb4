import { createServer, type Server, type Socket } from 'node:net';
import type Sharp from 'sharp';
import { ApexError } from '@apex/errors';
import { hostnameOfHostHeader, isLoopbackHost } from '@apex/serve-security';
import type { Phone } from '../model';

/**
 * The screen as an MJPEG stream, the way WebDriverAgent's FBMjpegServer serves it (port 9100 on a phone): a raw
 * TCP listener; any bytes from a client get the HTTP/1.0 head, then one JPEG part per tick of the framerate,
 * until the client goes away. Written from the protocol notes (WDA-PROTOCOL.md §6), not from any client.
 */

/** The head FBMjpegServer writes; note the boundary parameter already carries the two dashes. */
export const MJPEG_BOUNDARY = '--BoundaryString';
const HEAD =
  'HTTP/1.0 200 OK\r\n' +
  'Server: WDA MJPEG Server\r\n' +
  'Connection: close\r\n' +
  'Max-Age: 0\r\n' +
  'Expires: 0\r\n' +
  'Cache-Control: no-cache, private\r\n' +
  'Pragma: no-cache\r\n' +
  `Content-Type: multipart/x-mixed-replace; boundary=${MJPEG_BOUNDARY}\r\n\r\n`;

/** The settings that shape the stream (WDA names: mjpegServerFramerate, mjpegServerScreenshotQuality, mjpegScalingFactor). */
export interface MjpegSettings {
  mjpegServerFramerate: number;
  mjpegServerScreenshotQuality: number;
  mjpegScalingFactor: number;
}

/** When the next frame is due; injectable so tests can read the interval without waiting for it. */
export interface FrameClock {
  after(ms: number, tick: () => void): () => void;
}

const REAL_CLOCK: FrameClock = {
  after(ms, tick) {
    const timer = setTimeout(tick, ms);
    return () => clearTimeout(timer);
  },
};

export interface MjpegServerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Serves clients that name a non-loopback Host (the phone is reachable beyond this machine on purpose). */
  allowRemote?: boolean;
  /** The current settings (those of the WDA session, or WDA's defaults). */
  settings: () => MjpegSettings;
  clock?: FrameClock;
}

/** Bytes a client may send before its head is complete; more, and it is dropped. */
const MAX_REQUEST_BYTES = 16 * 1024;
/** A client that sent bytes but no full HTTP head within this time is streamed to anyway (any bytes count, as in WDA). */
const HEAD_GRACE_MS = 200;
/** A client whose socket cannot take frames fast enough skips frames instead of buffering them. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

export const MJPEG_FRAMERATE_RANGE = { min: 1, max: 60 } as const;

/** Frame interval for a framerate setting, clamped to what the server serves (1..60 frames/s). */
export function frameIntervalMs(framerate: number): number {
  const rate = Number.isFinite(framerate) ? Math.min(MJPEG_FRAMERATE_RANGE.max, Math.max(MJPEG_FRAMERATE_RANGE.min, framerate)) : 10;
  return Math.round(1000 / rate);
}

export class MjpegServer {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly viewers = new Set<Socket>();
  private readonly clock: FrameClock;
  private cancelTick?: () => void;
  private encoded?: { key: string; jpeg: Promise<Buffer> };
  private boundPort: number;
  private closed = false;

  constructor(
    private readonly phone: Phone,
    private readonly options: MjpegServerOptions,
  ) {
    this.clock = options.clock ?? REAL_CLOCK;
    this.boundPort = options.port;
    this.server = createServer((socket) => this.accept(socket));
  }

  get port(): number {
    return this.boundPort;
  }

  listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      const onError = (error: NodeJS.ErrnoException) => {
        reject(
          error.code === 'EADDRINUSE'
            ? new ApexError('invalid_argument', `Port ${this.boundPort} on ${this.options.host} is already in use.`, {
                hint: 'Choose another screen stream port, or 0 for a free one.',
                cause: error,
              })
            : error,
        );
      };
      this.server.once('error', onError);
      this.server.listen(this.boundPort, this.options.host, () => {
        this.server.off('error', onError);
        const address = this.server.address();
        if (address && typeof address === 'object') this.boundPort = address.port;
        resolve();
      });
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopTicking();
    const stopped = new Promise<void>((resolve) => (this.server.listening ? this.server.close(() => resolve()) : resolve()));
    for (const socket of this.sockets) socket.destroy();
    await stopped;
  }

  /**
   * Encodes the current screen now for the next tick (the tick's cadence stays the framerate's): a change
   * then reaches viewers at the next tick instead of one tick plus the render and the encoding later.
   */
  prepare(): void {
    if (this.closed || this.viewers.size === 0) return;
    this.frame(this.options.settings()).catch(() => undefined);
  }

  /** Clients receiving frames now. */
  get viewerCount(): number {
    return this.viewers.size;
  }

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.sockets.delete(socket);
      this.viewers.delete(socket);
      if (this.viewers.size === 0) this.stopTicking();
    });
    let received = '';
    let grace: NodeJS.Timeout | undefined;
    const onData = (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (received.length > MAX_REQUEST_BYTES) {
        socket.destroy();
        return;
      }
      if (received.includes('\r\n\r\n')) start();
      else grace ??= setTimeout(start, HEAD_GRACE_MS);
    };
    const start = () => {
      clearTimeout(grace);
      socket.off('data', onData);
      // Unlike WDA, a request that names a foreign Host (a DNS-rebinding page) is refused unless remote use is allowed.
      if (!this.options.allowRemote && !namesLoopbackOrNoHost(received)) {
        socket.destroy();
        return;
      }
      socket.on('data', () => undefined);
      socket.write(HEAD);
      this.viewers.add(socket);
      this.startTicking();
    };
    socket.on('data', onData);
  }

  private startTicking(): void {
    if (this.cancelTick || this.closed) return;
    this.tick();
  }

  private stopTicking(): void {
    this.cancelTick?.();
    this.cancelTick = undefined;
  }

  /** Sends the current frame to every viewer, then waits one frame interval of the current framerate. */
  private tick(): void {
    const settings = this.options.settings();
    this.cancelTick = this.clock.after(frameIntervalMs(settings.mjpegServerFramerate), () => {
      this.cancelTick = undefined;
      if (this.viewers.size > 0 && !this.closed) this.tick();
    });
    this.frame(settings).then(
      (jpeg) => {
        const part = Buffer.concat([
          Buffer.from(`${MJPEG_BOUNDARY}\r\nContent-type: image/jpeg\r\nContent-Length: ${jpeg.length}\r\n\r\n`, 'latin1'),
          jpeg,
          Buffer.from('\r\n\r\n', 'latin1'),
        ]);
        for (const viewer of this.viewers) {
          if (!viewer.destroyed && viewer.writableLength <= MAX_BUFFERED_BYTES) viewer.write(part);
        }
      },
      () => undefined,
    );
  }

  /** The JPEG of the screen now, encoded once per screen state and settings. */
  private frame(settings: MjpegSettings): Promise<Buffer> {
    const quality = clamp(Math.round(settings.mjpegServerScreenshotQuality), 1, 100);
    const scaling = clamp(Math.round(settings.mjpegScalingFactor), 1, 100);
    const key = `${this.phone.version}/${quality}/${scaling}`;
    if (this.encoded?.key === key) return this.encoded.jpeg;
    // From the pixels: decoding the phone's PNG again would cost more than the JPEG encoding itself.
    const { rgba, width, height } = this.phone.renderPixels();
    const sharp = loadSharp();
    const image = sharp(rgba, { raw: { width, height, channels: 4 } }).removeAlpha();
    const resized = scaling === 100 ? image : image.resize({ width: Math.max(1, Math.round((width * scaling) / 100)) });
    const jpeg = resized.jpeg({ quality }).toBuffer();
    this.encoded = { key, jpeg };
    jpeg.catch(() => {
      if (this.encoded?.jpeg === jpeg) this.encoded = undefined;
    });
    return jpeg;
  }
}

function clamp(value: number, min: number, max: number): number {
  return Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : max;
}

/** True unless the bytes are an HTTP head whose Host names something other than this machine. */
function namesLoopbackOrNoHost(request: string): boolean {
  const host = /\r\nhost:[ \t]*([^\r\n]*)/i.exec(request)?.[1]?.trim();
  if (host === undefined) return true;
  const name = hostnameOfHostHeader(host);
  return name !== undefined && isLoopbackHost(name);
}

let sharpModule: typeof Sharp | undefined;

/**
 * sharp, required with the first frame, not at start-up: most runs never open the stream. Every frame is new
 * pixels, so libvips' operation cache is off (process-wide, as Apex's perception also sets it): it would only keep
 * old frames alive.
 */
function loadSharp(): typeof Sharp {
  if (!sharpModule) {
    sharpModule = require('sharp') as typeof Sharp;
    sharpModule.cache(false);
  }
  return sharpModule;
}
