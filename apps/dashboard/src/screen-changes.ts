/**
 * When the page reads the element tree again: only after the live screen showed a change (a device resends an
 * unchanged screen as the same bytes), once the screen has settled, and never while the page is hidden — a
 * tree read is a slow device call that queues in front of everyone's actions.
 */

/** Tells a frame that shows something new from a repeat of the one before. */
export class FrameChanges {
  private last?: Uint8Array;

  /** 'first' for the first frame seen, 'changed' when its bytes differ from the last one's, 'same' otherwise. */
  see(frame: Uint8Array): 'first' | 'changed' | 'same' {
    const last = this.last;
    this.last = frame;
    if (!last) return 'first';
    return sameBytes(last, frame) ? 'same' : 'changed';
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** How long the screen must stay unchanged before the tree is read, and the longest a change waits for that. */
export const SETTLE_MS = 300;
export const MAX_SETTLE_WAIT_MS = 2_000;

export interface TreeReadTimers {
  setTimeout(fn: () => void, ms: number): number;
  clearTimeout(id: number): void;
  now(): number;
}

/**
 * Turns screen changes into tree reads: one read per burst of changes (after SETTLE_MS of quiet, or
 * MAX_SETTLE_WAIT_MS after the burst began while it goes on); while hidden, a change is remembered and read
 * when the page is shown again.
 */
export class TreeReadScheduler {
  private timer?: number;
  private burstStart?: number;
  private pendingWhileHidden = false;

  constructor(
    private readonly read: () => void,
    private readonly hidden: () => boolean,
    private readonly timers: TreeReadTimers,
  ) {}

  /** The live screen showed a change. */
  changed(): void {
    if (this.hidden()) {
      this.pendingWhileHidden = true;
      return;
    }
    const now = this.timers.now();
    this.burstStart ??= now;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(SETTLE_MS, this.burstStart + MAX_SETTLE_WAIT_MS - now));
    this.timer = this.timers.setTimeout(() => this.fire(), wait);
  }

  /** The page's visibility changed: a change seen while hidden is read now. */
  visibilityChanged(): void {
    if (this.hidden()) {
      this.cancel();
      return;
    }
    if (this.pendingWhileHidden) {
      this.pendingWhileHidden = false;
      this.changed();
    }
  }

  cancel(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.burstStart = undefined;
  }

  private fire(): void {
    this.timer = undefined;
    this.burstStart = undefined;
    if (this.hidden()) {
      this.pendingWhileHidden = true;
      return;
    }
    this.read();
  }
}
