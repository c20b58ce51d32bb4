import { rename, rm, stat } from 'node:fs/promises';
import { ApexError } from '@apex/errors';
import type { LiveScreen } from '@apex/capability';
import { FramePacer } from './frame-pacer';
import { jpegSize } from './jpeg-size';
import { MAX_VIDEO_SIDE } from './limits';
import { Mp4Encoder } from './mp4-encoder';

/** Why a recording ended. */
export const END_REASONS = ['stopped', 'max_seconds', 'max_bytes', 'device_gone', 'shutdown'] as const;
export type EndReason = (typeof END_REASONS)[number];

export interface RecordingSettings {
  fps: number;
  maxSeconds: number;
  /** Of the screen frames' size; the video's longest side stays within MAX_VIDEO_SIDE. */
  scale: number;
  /** The recording ends when its file grows past this. */
  maxBytes: number;
}

/** A finished recording, as its sidecar keeps it. */
export interface FinishedRecording {
  id: string;
  device: string;
  /** ISO time of the first frame. */
  startedAt: string;
  seconds: number;
  frames: number;
  bytes: number;
  fps: number;
  width: number;
  height: number;
  endedBy: EndReason;
}

export interface RecordingDeps {
  id: string;
  device: string;
  live: LiveScreen;
  /** Aborting it leaves the live screen (the recording's reader of the device's frames). */
  leaveLive: AbortController;
  /** The MP4 while it is written, and where it goes when complete. */
  partFile: string;
  file: string;
  settings: RecordingSettings;
  /** Milliseconds, monotonic (injectable for tests). */
  clock: () => number;
  /** How often time is checked when no frame comes (the still screen's frames, maxSeconds, the size bound). */
  tickMs: number;
  /** How long the encoder may take to complete the file before it is killed. */
  finishTimeoutMs: number;
  onEncoderFailure: (error: unknown, diagnostics: string) => void;
}

/** The video's size: the frame scaled, within MAX_VIDEO_SIDE, both sides even and at least 2 (H.264 4:2:0). */
export function videoSize(frame: { width: number; height: number }, scale: number): { width: number; height: number } {
  const factor = Math.min(scale, MAX_VIDEO_SIDE / Math.max(frame.width, frame.height));
  const even = (n: number) => Math.max(2, 2 * Math.round((n * factor) / 2));
  return { width: even(frame.width), height: even(frame.height) };
}

/**
 * One recording in progress: the device's live frames, paced to a constant rate of wall time (FramePacer), into
 * the encoder; ends on `stop`, at maxSeconds, past maxBytes, or when the frames end (the device went away), and
 * always completes the file then. `ended` resolves with what was recorded once the MP4 is in place.
 */
export class ActiveRecording {
  readonly id: string;
  readonly device: string;
  readonly startedAt: string;
  readonly width: number;
  readonly height: number;
  readonly ended: Promise<FinishedRecording>;
  private readonly pacer: FramePacer<Buffer>;
  private readonly encoder: Mp4Encoder;
  private readonly startMs: number;
  private reason?: EndReason;
  private writing: Promise<void> = Promise.resolve();
  private failure?: unknown;
  private checkingSize = false;

  constructor(private readonly deps: RecordingDeps) {
    const { id, device, live, settings, clock } = deps;
    const frameSize = jpegSize(live.first);
    if (!frameSize) {
      deps.leaveLive.abort();
      throw new ApexError('device_error', `Device ${device} sent a screen frame that is not a readable JPEG image; it cannot be recorded.`);
    }
    this.id = id;
    this.device = device;
    ({ width: this.width, height: this.height } = videoSize(frameSize, settings.scale));
    this.encoder = new Mp4Encoder({ file: deps.partFile, fps: settings.fps, width: this.width, height: this.height });
    this.startMs = clock();
    this.startedAt = new Date().toISOString();
    this.pacer = new FramePacer(settings.fps, this.startMs, live.first, settings.maxSeconds * settings.fps);
    this.ended = this.run();
  }

  /** What has been recorded so far. */
  get progress(): { seconds: number; frames: number } {
    return { seconds: this.pacer.seconds, frames: this.pacer.frames };
  }

  /** The encoder process's id (for measuring its CPU time); undefined if it could not be started. */
  get encoderPid(): number | undefined {
    return this.encoder.pid;
  }

  /** Asks the recording to end (the first reason given wins); `ended` says when the file is complete. */
  requestStop(reason: EndReason): void {
    this.reason ??= reason;
    this.deps.leaveLive.abort();
  }

  private async run(): Promise<FinishedRecording> {
    const { live, clock, tickMs } = this.deps;
    const ticker = setInterval(() => this.tick(), tickMs);
    try {
      for await (const frame of live.rest) {
        if (this.reason) break;
        this.enqueue(this.pacer.push(frame, clock()));
        this.checkDuration();
        // At most one batch in flight: while the encoder is busy the live screen keeps only the newest frame.
        await this.writing;
      }
    } catch {
      // The frames failed: the device went away (or stopped answering); what was recorded is kept.
    } finally {
      clearInterval(ticker);
    }
    this.requestStop('device_gone');
    return this.complete();
  }

  private tick(): void {
    if (this.reason) return;
    this.enqueue(this.pacer.tick(this.deps.clock()));
    this.checkDuration();
    void this.checkSize();
  }

  private checkDuration(): void {
    if (this.deps.clock() - this.startMs >= this.deps.settings.maxSeconds * 1000) this.requestStop('max_seconds');
  }

  private async checkSize(): Promise<void> {
    if (this.checkingSize) return;
    this.checkingSize = true;
    try {
      const { size } = await stat(this.deps.partFile);
      if (size > this.deps.settings.maxBytes) this.requestStop('max_bytes');
    } catch {
      // Not written yet.
    } finally {
      this.checkingSize = false;
    }
  }

  private enqueue(owed: { frame: Buffer; count: number } | undefined): void {
    if (!owed) return;
    this.writing = this.writing
      .then(() => (this.failure === undefined ? this.encoder.write(owed.frame, owed.count) : undefined))
      .catch((error: unknown) => {
        this.failure ??= error;
        this.requestStop('device_gone');
      });
  }

  /** Hands out the last slot, completes the MP4 and moves it into place; a failed encoder leaves no file. */
  private async complete(): Promise<FinishedRecording> {
    const { partFile, file, finishTimeoutMs, settings } = this.deps;
    this.enqueue(this.pacer.finish(this.deps.clock()));
    await this.writing;
    try {
      if (this.failure !== undefined) throw this.failure;
      await this.encoder.finish(finishTimeoutMs);
      await rename(partFile, file);
    } catch (error) {
      this.deps.onEncoderFailure(error, this.encoder.diagnosticText);
      await this.encoder.kill();
      await rm(partFile, { force: true });
      throw new ApexError('internal', `The recording of device ${this.device} could not be completed; nothing was kept.`, { cause: error });
    }
    const { size } = await stat(file);
    return {
      id: this.id,
      device: this.device,
      startedAt: this.startedAt,
      seconds: this.pacer.seconds,
      frames: this.pacer.frames,
      bytes: size,
      fps: settings.fps,
      width: this.width,
      height: this.height,
      endedBy: this.reason ?? 'device_gone',
    };
  }
}
