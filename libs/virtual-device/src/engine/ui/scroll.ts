/** A vertical scroll offset clamped to its content. */
export class ScrollState {
  offset = 0;

  /** The finger moved by `dy` points (content follows the finger); clamps to [0, max]. */
  drag(dy: number, max: number): void {
    this.offset = clamp(this.offset - dy, 0, Math.max(0, max));
  }

  clampTo(max: number): void {
    this.offset = clamp(this.offset, 0, Math.max(0, max));
  }

  reset(): void {
    this.offset = 0;
  }
}

export function clamp(n: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, n));
}
