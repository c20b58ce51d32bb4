import type { SKRSContext2D } from '@napi-rs/canvas';
import { canvasApi } from './canvas';
import { ensureFonts, font, type FontWeight } from './fonts';

let measurer: SKRSContext2D | null = null;
const cache = new Map<string, number>();

/** A context for measuring text while laying out (before any drawing). */
export function measureContext(): SKRSContext2D {
  if (!measurer) {
    ensureFonts();
    measurer = canvasApi().createCanvas(1, 1).getContext('2d');
    measurer.lang = 'en';
  }
  return measurer;
}

/** Width in points of one line of text. */
export function measure(text: string, size: number, weight: FontWeight = 'regular'): number {
  const key = `${weight}|${size}|${text}`;
  let w = cache.get(key);
  if (w === undefined) {
    const ctx = measureContext();
    ctx.font = font(size, weight);
    w = ctx.measureText(text).width;
    if (cache.size > 5000) cache.clear();
    cache.set(key, w);
  }
  return w;
}
