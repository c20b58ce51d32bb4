import type { Canvas, SKRSContext2D } from '@napi-rs/canvas';
import { canvasApi } from './canvas';
import type { View } from '../view';
import { paintTree } from '../view';
import { ensureFonts } from './fonts';
import { PngEncoder } from './png';
import type { Theme } from './theme';

/** Draws view trees into a reused canvas and remembers the PNG of the last state version. */
export class Renderer {
  private canvas: Canvas | null = null;
  private cached: { key: string; png: Buffer } | null = null;
  private readonly encoder = new PngEncoder();

  constructor(private readonly scale: number) {}

  /**
   * A copy of the pixels of the last drawn state (the one `png()` last returned): RGBA, opaque. Null before
   * anything was drawn.
   */
  lastPixels(): { rgba: Buffer; width: number; height: number } | null {
    if (!this.canvas) return null;
    return { rgba: Buffer.from(this.canvas.data()), width: this.canvas.width, height: this.canvas.height };
  }

  cachedKey(): string | null {
    return this.cached?.key ?? null;
  }

  /** `key` identifies the state: the same key returns the cached bytes without drawing. */
  png(key: string, width: number, height: number, theme: Theme, root: View, overlay: (ctx: SKRSContext2D) => void): Buffer {
    if (this.cached?.key === key) return this.cached.png;
    const pw = Math.round(width * this.scale);
    const ph = Math.round(height * this.scale);
    if (!this.canvas || this.canvas.width !== pw || this.canvas.height !== ph) {
      // The fonts (and the canvas library) on the first drawing, not when the phone is made.
      ensureFonts();
      this.canvas = canvasApi().createCanvas(pw, ph);
    }
    const ctx = this.canvas.getContext('2d');
    // A fixed language: the default follows the host's, which may change how text is shaped.
    ctx.lang = 'en';
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.globalAlpha = 1;
    ctx.fillStyle = theme.background;
    ctx.fillRect(0, 0, pw, ph);
    ctx.scale(this.scale, this.scale);
    const screen = { x: 0, y: 0, width, height };
    paintTree(root, { ctx, theme }, screen);
    overlay(ctx);
    // The stored pixels are premultiplied, which equals straight alpha here: the canvas is opaque (painted over
    // an opaque background), and reading them is much cheaper than getImageData's converted copy.
    const png = this.encoder.encode(this.canvas.data(), pw, ph);
    this.cached = { key, png };
    return png;
  }
}
