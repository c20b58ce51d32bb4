/**
 * Turns frames that arrive whenever the screen changes into a constant frame rate whose length is wall time:
 * the video is cut into slots of 1/fps s from the first frame; each slot shows the newest frame that arrived
 * before the slot ended, so a still screen is the same frame repeated for as long as it stayed still. Pure:
 * the caller says what time it is and writes the frames it is told to.
 */
export class FramePacer<F> {
  private current: F;
  /** Slots already handed out. */
  private written = 0;

  constructor(
    private readonly fps: number,
    private readonly startMs: number,
    first: F,
    /** Slots never handed out past this many (maxSeconds × fps). */
    private readonly maxSlots: number,
  ) {
    this.current = first;
  }

  get frames(): number {
    return this.written;
  }

  /** Seconds of video handed out so far. */
  get seconds(): number {
    return this.written / this.fps;
  }

  /** A new frame at `atMs`: the slots that ended before it show the previous frame. */
  push(frame: F, atMs: number): { frame: F; count: number } | undefined {
    const owed = this.catchUp(atMs);
    this.current = frame;
    return owed;
  }

  /** Time passes with no new frame: the slots that ended show the current frame. */
  tick(atMs: number): { frame: F; count: number } | undefined {
    return this.catchUp(atMs);
  }

  /** The end at `atMs`: the slot in progress is shown whole (at least one frame in all). */
  finish(atMs: number): { frame: F; count: number } | undefined {
    const total = Math.min(this.maxSlots, Math.max(1, Math.ceil(((atMs - this.startMs) * this.fps) / 1000)));
    return this.handOut(total);
  }

  private catchUp(atMs: number): { frame: F; count: number } | undefined {
    return this.handOut(Math.min(this.maxSlots, Math.floor(((atMs - this.startMs) * this.fps) / 1000)));
  }

  private handOut(total: number): { frame: F; count: number } | undefined {
    const count = total - this.written;
    if (count <= 0) return undefined;
    this.written = total;
    return { frame: this.current, count };
  }
}
