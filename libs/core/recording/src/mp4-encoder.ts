import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { encoderBinary } from './encoder-binary';

export interface Mp4EncoderOptions {
  /** Where the MP4 is written (replaced if it exists). */
  file: string;
  fps: number;
  /** The video's size in pixels; frames of another size are scaled to it. Both even (H.264 4:2:0). */
  width: number;
  height: number;
}

/** Characters of the encoder's own messages kept for the log of a failure (never shown to a client). */
const MAX_DIAGNOSTIC_CHARS = 4_000;

/**
 * One H.264 MP4 being written by the encoder process: JPEG frames in on its standard input at a constant
 * rate, `finish()` closes the input and waits for the file to be complete (index moved to the front so a
 * browser can play it before it has all of it).
 */
export class Mp4Encoder {
  private readonly child: ChildProcessByStdio<Writable, null, Readable>;
  private diagnostics = '';
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private failure?: Error;

  constructor(options: Mp4EncoderOptions) {
    const { file, fps, width, height } = options;
    const args = [
      '-hide_banner',
      '-loglevel', 'error',
      // No input probe: the format and codec are given, and the decoder learns the size from the first frame.
      // ffmpeg's default probe (5 MB or 5 s of input) held the first ~5.5 s of frames before encoding any.
      '-probesize', '32',
      '-analyzeduration', '0',
      '-f', 'image2pipe',
      '-framerate', String(fps),
      '-c:v', 'mjpeg',
      '-i', 'pipe:0',
      '-vf', `scale=${width}:${height}:flags=bilinear,format=yuv420p`,
      '-c:v', 'libx264',
      '-preset', 'veryfast',
      '-crf', '26',
      // A key frame every 2 s: a browser seeks to any of them.
      '-g', String(fps * 2),
      '-movflags', '+faststart',
      '-f', 'mp4',
      '-y', file,
    ];
    this.child = spawn(encoderBinary(), args, { stdio: ['pipe', 'ignore', 'pipe'] });
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (text: string) => {
      this.diagnostics = (this.diagnostics + text).slice(-MAX_DIAGNOSTIC_CHARS);
    });
    // A write after the encoder died fails here (EPIPE); `write` and `finish` report it.
    this.child.stdin.on('error', (error) => {
      this.failure ??= error;
    });
    this.exited = new Promise((resolve) => {
      this.child.once('error', (error) => {
        this.failure ??= error;
        resolve({ code: null, signal: null });
      });
      this.child.once('close', (code, signal) => resolve({ code, signal }));
    });
  }

  /** The encoder process's id while it runs (the bench reads its CPU time from /proc); undefined if it never started. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** The encoder's last messages, for a log line when something failed. */
  get diagnosticText(): string {
    return this.diagnostics;
  }

  /** Writes `count` copies of the frame; resolves once the encoder has taken them in (no unbounded buffering). */
  async write(jpeg: Buffer, count = 1): Promise<void> {
    for (let i = 0; i < count; i++) {
      if (this.failure) throw this.failure;
      if (!this.child.stdin.write(jpeg)) await this.drained();
    }
  }

  /** Closes the input and waits until the file is complete; rejects when the encoder failed. */
  async finish(timeoutMs: number): Promise<void> {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    try {
      const { code, signal } = await this.exited;
      if (code !== 0) throw this.failure ?? new Error(`the encoder ended with ${signal ?? `code ${code}`}: ${this.diagnostics.trim()}`);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Stops the encoder at once (the file is not usable). */
  async kill(): Promise<void> {
    this.child.stdin.destroy();
    this.child.kill('SIGKILL');
    await this.exited;
  }

  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.child.stdin.off('drain', done);
        this.child.off('close', done);
        resolve();
      };
      this.child.stdin.once('drain', done);
      this.child.once('close', done);
    });
  }
}
