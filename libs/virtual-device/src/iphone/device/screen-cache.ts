import type { SKRSContext2D } from '@napi-rs/canvas';
import { Renderer } from '../../engine/render/renderer';
import type { Theme } from '../../engine/render/theme';
import type { View } from '../../engine/view';

/**
 * The view tree and the PNG of the current state, each built at most once per state version, and the optional
 * background prerender: after the screen changes and then stays unchanged for `prerenderAfterMs`, the PNG is
 * drawn ahead of the next screenshot.
 */
export class ScreenCache {
  private views: { version: number; root: View } | null = null;
  private readonly renderer: Renderer;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    scale: number,
    private readonly prerenderAfterMs: number | undefined,
    private readonly prerender: () => void,
  ) {
    this.renderer = new Renderer(scale);
  }

  root(version: number, build: () => View): View {
    if (this.views?.version === version) return this.views.root;
    const root = build();
    this.views = { version, root };
    return root;
  }

  png(version: number, width: number, height: number, theme: Theme, root: View, overlay: (ctx: SKRSContext2D) => void): Buffer {
    return this.renderer.png(`${version}`, width, height, theme, root, overlay);
  }

  pixels(): { rgba: Buffer; width: number; height: number } {
    const pixels = this.renderer.lastPixels();
    if (!pixels) throw new Error('nothing was drawn');
    return pixels;
  }

  hasPng(version: number): boolean {
    return this.renderer.cachedKey() === `${version}`;
  }

  /** The state changed: restart the quiet-time countdown (rapid sequences of changes render nothing). */
  changed(): void {
    if (this.prerenderAfterMs === undefined) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.prerender();
    }, this.prerenderAfterMs);
    // Never keeps the process alive.
    this.timer.unref();
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
