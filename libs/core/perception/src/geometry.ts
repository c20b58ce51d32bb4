import type { Point, Rect } from '@apex/port';

export function unionOf(rects: Rect[]): Rect {
  const x0 = Math.min(...rects.map((r) => r.x));
  const y0 = Math.min(...rects.map((r) => r.y));
  const x1 = Math.max(...rects.map((r) => r.x + r.width));
  const y1 = Math.max(...rects.map((r) => r.y + r.height));
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

export function intersectionArea(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

export function intersects(a: Rect, b: Rect): boolean {
  return intersectionArea(a, b) > 0;
}

/** Intersection over union, 0..1. */
export function iou(a: Rect, b: Rect): number {
  const inter = intersectionArea(a, b);
  const union = a.width * a.height + b.width * b.height - inter;
  return union > 0 ? inter / union : 0;
}

/** Share of the smaller rect covered by the other, 0..1. */
export function overlapOfSmaller(a: Rect, b: Rect): number {
  const smaller = Math.min(a.width * a.height, b.width * b.height);
  return smaller > 0 ? intersectionArea(a, b) / smaller : 0;
}

/** Rounded to 0.1 pt: enough for tapping, compact in JSON. */
export function roundRect(rect: Rect): Rect {
  return { x: round1(rect.x), y: round1(rect.y), width: round1(rect.width), height: round1(rect.height) };
}

export function roundedCenter(rect: Rect): Point {
  return { x: round1(rect.x + rect.width / 2), y: round1(rect.y + rect.height / 2) };
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

export function clipTo(rect: Rect, bounds: Rect): Rect | undefined {
  const x = Math.max(rect.x, bounds.x);
  const y = Math.max(rect.y, bounds.y);
  const right = Math.min(rect.x + rect.width, bounds.x + bounds.width);
  const bottom = Math.min(rect.y + rect.height, bounds.y + bounds.height);
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : undefined;
}
