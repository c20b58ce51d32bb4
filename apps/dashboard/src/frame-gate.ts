/**
 * Shows the newest frame without starving: a frame is decoded before it replaces the one on screen, and
 * while one decodes, newer frames wait (only the newest is kept, the others are dropped). Swapping an
 * `<img>`'s source on every arrival instead restarts its decoding each time, and on a busy machine the page
 * then shows a changed screen only when a decode happens to finish before the next frame comes.
 */
export class FrameGate {
  private decoding = false;
  private waiting: string | undefined;
  private closed = false;

  constructor(
    private readonly decode: (url: string) => Promise<void>,
    private readonly show: (url: string) => void,
    /** A frame that will never be shown: its blob URL can be released. */
    private readonly drop: (url: string) => void,
  ) {}

  push(url: string): void {
    if (this.closed) return this.drop(url);
    if (!this.decoding) return this.start(url);
    if (this.waiting) this.drop(this.waiting);
    this.waiting = url;
  }

  close(): void {
    this.closed = true;
    if (this.waiting) this.drop(this.waiting);
    this.waiting = undefined;
  }

  private start(url: string): void {
    this.decoding = true;
    this.decode(url)
      .then(
        () => (this.closed ? this.drop(url) : this.show(url)),
        () => this.drop(url),
      )
      .finally(() => {
        this.decoding = false;
        const next = this.waiting;
        this.waiting = undefined;
        if (next) this.start(next);
      });
  }
}

/** Decodes an image URL off the page's `<img>` (the browser keeps the decoded pixels for the swap). */
export function decodeImage(url: string): Promise<void> {
  const image = new Image();
  image.src = url;
  return image.decode();
}
